/** The only way a legal document leaves the server as JSON. */
import { LEGAL_DOCUMENT_TITLES, type DataProtectionContact, type LegalDocumentResponse } from '@aabify/shared';
import type { LegalText } from './documents.js';

export function presentLegalDocument(text: LegalText, dataProtectionOfficer?: DataProtectionContact): LegalDocumentResponse {
  return {
    kind: text.kind,
    title: LEGAL_DOCUMENT_TITLES[text.kind],
    version: text.version,
    body: text.body,
    publishedAt: text.publishedAt ? text.publishedAt.toISOString() : null,
    ...(text.kind === 'privacy' ? { dataProtectionOfficer: dataProtectionOfficer ?? { name: null, email: null } } : {}),
  };
}
