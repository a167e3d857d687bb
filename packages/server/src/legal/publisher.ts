/**
 * Publishing a new version of a legal document (Admin › Termos e privacidade): the next number,
 * never an older version changed; every process learns it when the transaction commits, and
 * customers are asked to accept it at their next request (http/guards.ts).
 */
import { LEGAL_MESSAGES, type LegalDocumentKind } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { SignedInActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';
import { ApiError } from '../http/errors.js';
import { LEGAL_DOCUMENT_TOPIC } from './documents.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize' | 'notifier' | 'legal'>;

export async function publishLegalDocument(ctx: Ctx, actor: SignedInActor, kind: LegalDocumentKind, body: string): Promise<number> {
  const version = await ctx.sequelize.transaction(async (transaction) => {
    // One publication of a document at a time: two admins saving together get 2 and 3, not a clash.
    await ctx.sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:key))', { replacements: { key: `legal-document:${kind}` }, transaction });
    const latest = await ctx.models.LegalDocument.findOne({ where: { kind }, order: [['version', 'DESC']], transaction });
    const currentBody = latest ? latest.body : (await ctx.legal.version(kind, 1))!.body;
    if (currentBody === body) throw new ApiError(409, 'LEGAL_BODY_UNCHANGED', LEGAL_MESSAGES.bodyUnchanged, { fields: { body: LEGAL_MESSAGES.bodyUnchanged } });
    const next = (latest?.version ?? 1) + 1;
    await ctx.models.LegalDocument.create({ kind, version: next, body, publishedById: actor.user.id, publishedByEmail: actor.user.email }, { transaction });
    await recordAudit(ctx, { action: 'legal.published', actor, target: { type: 'legal_document', id: kind, label: `${kind} v${next}` }, details: { kind, version: next, length: body.length } }, { transaction });
    await ctx.notifier.notify(LEGAL_DOCUMENT_TOPIC, kind, transaction);
    transaction.afterCommit(() => ctx.legal.forget());
    return next;
  });
  return version;
}
