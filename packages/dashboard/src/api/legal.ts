/** Termos de Uso, Política de Privacidade and their acceptance; Admin › Termos e privacidade. */
import type { AdminLegalDocumentResponse, LegalAcceptanceStatus, LegalDocumentKind, LegalDocumentResponse } from '@aabify/shared';
import { api } from './client';

export const legalApi = {
  document: (kind: LegalDocumentKind) => api.get<LegalDocumentResponse>(`/legal/${kind}`, { quiet: true }),
  acceptanceStatus: () => api.get<LegalAcceptanceStatus>('/legal/acceptance', { quiet: true }),
  accept: (versions: { termsVersion: number; privacyVersion: number }) => api.post<{ message: string }>('/legal/acceptance', versions),
  adminDocument: (kind: LegalDocumentKind) => api.get<AdminLegalDocumentResponse>(`/admin/legal/${kind}`),
  adminVersion: (kind: LegalDocumentKind, version: number) => api.get<LegalDocumentResponse>(`/admin/legal/${kind}/versions/${version}`),
  publish: (kind: LegalDocumentKind, body: string) => api.post<{ version: number; message: string }>(`/admin/legal/${kind}`, { body }, { quiet: true }),
};
