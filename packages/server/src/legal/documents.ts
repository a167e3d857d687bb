/**
 * The Termos de Uso and the Política de Privacidade: their current versions (cached in every
 * process until a new version is published anywhere), the versions kept, and whether an account
 * must accept again. Version 1 of each is the text the product ships with (DEFAULT_LEGAL_TEXTS);
 * administrators publish 2, 3 … (legal/publisher.ts), never changing an older one.
 */
import {
  DEFAULT_LEGAL_TEXTS,
  LEGAL_DOCUMENT_KINDS,
  type LegalDocumentKind,
  type LegalVersionSummary,
} from '@aabify/shared';
import type { Models, User } from '../models/index.js';
import type { Notifier } from '../db/notifications.js';
import { NotifiedCache } from '../db/notifiedCache.js';

/** The notifier topic a publication sends (legal/publisher.ts): every process drops its copy. */
export const LEGAL_DOCUMENT_TOPIC = 'legal-document';

export interface LegalText {
  kind: LegalDocumentKind;
  version: number;
  body: string;
  publishedAt: Date | null;
}

export type CurrentLegalTexts = Record<LegalDocumentKind, LegalText>;
export type LegalVersions = Record<LegalDocumentKind, number>;

export interface LegalDocumentsDeps {
  models: Pick<Models, 'LegalDocument'>;
  notifier: Notifier;
}

const CURRENT_KEY = 'current';

export class LegalDocuments {
  private readonly cache: NotifiedCache<CurrentLegalTexts>;

  constructor(private readonly deps: LegalDocumentsDeps) {
    // Any payload (or none) drops the one entry: a publication changes what is current.
    this.cache = new NotifiedCache(deps.notifier, { topic: LEGAL_DOCUMENT_TOPIC, max: 1, maxAgeMs: 5 * 60_000 });
  }

  async current(): Promise<CurrentLegalTexts> {
    const texts = await this.cache.get(CURRENT_KEY, () => this.load());
    return texts ?? this.load();
  }

  async currentVersions(): Promise<LegalVersions> {
    const texts = await this.current();
    return { terms: texts.terms.version, privacy: texts.privacy.version };
  }

  /** Drops this process's copy at once (the notification does it everywhere when the publication commits). */
  forget(): void {
    this.cache.clear();
  }

  /** A version of a document, or null when it does not exist. */
  async version(kind: LegalDocumentKind, version: number): Promise<LegalText | null> {
    if (version === 1) return { kind, version: 1, body: DEFAULT_LEGAL_TEXTS[kind], publishedAt: null };
    const row = await this.deps.models.LegalDocument.findOne({ where: { kind, version } });
    return row ? { kind, version: row.version, body: row.body, publishedAt: row.publishedAt } : null;
  }

  /** Every version of a document, newest first (version 1, the shipped text, last). */
  async versions(kind: LegalDocumentKind): Promise<LegalVersionSummary[]> {
    const rows = await this.deps.models.LegalDocument.findAll({ where: { kind }, order: [['version', 'DESC']] });
    return [
      ...rows.map((row) => ({ version: row.version, publishedAt: row.publishedAt.toISOString(), publishedBy: row.publishedByEmail, length: row.body.length })),
      { version: 1, publishedAt: null, publishedBy: null, length: DEFAULT_LEGAL_TEXTS[kind].length },
    ];
  }

  private async load(): Promise<CurrentLegalTexts> {
    const entries = await Promise.all(
      LEGAL_DOCUMENT_KINDS.map(async (kind): Promise<[LegalDocumentKind, LegalText]> => {
        const row = await this.deps.models.LegalDocument.findOne({ where: { kind }, order: [['version', 'DESC']] });
        return [kind, row ? { kind, version: row.version, body: row.body, publishedAt: row.publishedAt } : { kind, version: 1, body: DEFAULT_LEGAL_TEXTS[kind], publishedAt: null }];
      }),
    );
    return Object.fromEntries(entries) as CurrentLegalTexts;
  }
}

/**
 * Whether the account must accept the current versions before going on. Administrators run the
 * service and are not its customers: they are never asked.
 */
export function legalAcceptanceRequired(user: Pick<User, 'termsAcceptedVersion' | 'privacyAcceptedVersion' | 'hasAdminRole'>, current: LegalVersions): boolean {
  if (user.hasAdminRole()) return false;
  return (user.termsAcceptedVersion ?? 0) < current.terms || (user.privacyAcceptedVersion ?? 0) < current.privacy;
}
