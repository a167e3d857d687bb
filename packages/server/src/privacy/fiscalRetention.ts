/**
 * The end of the fiscal record of deleted accounts (job `privacy:fiscal-retention`, daily). A
 * deleted account's purchases keep the buyer's billing details as at the sale, and the account
 * row its e-mail, for FISCAL_RECORD_YEARS after the sale: the period in which the tax
 * authorities may review it (docs/privacy.md). Past it, nothing requires them any more, so they go:
 * - each such purchase's billing details, and its nota fiscal's links to the provider's PDF/XML
 *   (the amount, plan, dates and the note's number stay: the business's own books);
 * - once the account was deleted that long ago and none of its purchases is inside the period,
 *   the account row's e-mail, replaced by an address that names no one. (Until then the row keeps
 *   it: the buyer's identification, and what stops the same address from signing up again.)
 * Living accounts keep everything: their receipts stay downloadable. What went is audited.
 */
import { QueryTypes } from 'sequelize';
import type { AppContext } from '../context.js';
import { SYSTEM_ACTOR } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';

/** Years from a sale during which its fiscal record is kept (Código Tributário Nacional, arts. 173 and 174). */
export const FISCAL_RECORD_YEARS = 5;

const ANONYMOUS_EMAIL_PREFIX = 'conta-excluida-';
const ANONYMOUS_EMAIL_DOMAIN = '@aabify.invalid';

/** The e-mail a deleted account's row gets once its fiscal record has ended (`.invalid` can never be delivered). */
export function anonymousEmailOf(userId: string): string {
  return `${ANONYMOUS_EMAIL_PREFIX}${userId}${ANONYMOUS_EMAIL_DOMAIN}`;
}

export interface FiscalRetentionResult {
  purchases: number;
  notes: number;
  accounts: number;
}

export async function endExpiredFiscalRecords(ctx: Pick<AppContext, 'sequelize' | 'logger'>, now = new Date()): Promise<FiscalRetentionResult> {
  const replacements = { years: FISCAL_RECORD_YEARS, now, prefix: ANONYMOUS_EMAIL_PREFIX, domain: ANONYMOUS_EMAIL_DOMAIN };
  const periodStart = `CAST(:now AS timestamptz) - make_interval(years => :years)`;
  const saleBefore = `COALESCE(p."approvedAt", p."createdAt") < ${periodStart}`;
  const result = await ctx.sequelize.transaction(async (transaction) => {
    const purchases = await ctx.sequelize.query<{ id: string }>(
      `UPDATE purchases p SET "billingSnapshot" = NULL, "updatedAt" = now()
         FROM users u
        WHERE u.id = p."userId" AND u."deletedAt" IS NOT NULL AND p."billingSnapshot" IS NOT NULL AND ${saleBefore}
        RETURNING p.id`,
      { replacements, transaction, type: QueryTypes.SELECT },
    );
    const notes = await ctx.sequelize.query<{ id: string }>(
      `UPDATE fiscal_notes n SET "pdfUrl" = NULL, "xmlUrl" = NULL, "updatedAt" = now()
         FROM purchases p JOIN users u ON u.id = p."userId"
        WHERE n."purchaseId" = p.id AND u."deletedAt" IS NOT NULL AND (n."pdfUrl" IS NOT NULL OR n."xmlUrl" IS NOT NULL) AND ${saleBefore}
        RETURNING n.id`,
      { replacements, transaction, type: QueryTypes.SELECT },
    );
    const accounts = await ctx.sequelize.query<{ id: string }>(
      `UPDATE users u SET email = :prefix || u.id || :domain, "updatedAt" = now()
        WHERE u."deletedAt" < ${periodStart} AND u.email <> :prefix || u.id || :domain
          AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p."userId" = u.id AND NOT (${saleBefore}))
        RETURNING u.id`,
      { replacements, transaction, type: QueryTypes.SELECT },
    );
    const ended = { purchases: purchases.length, notes: notes.length, accounts: accounts.length };
    if (ended.purchases || ended.notes || ended.accounts) {
      await recordAudit(ctx, { action: 'privacy.fiscal_records_ended', actor: SYSTEM_ACTOR, target: { type: 'purchase', id: null }, details: { ...ended, years: FISCAL_RECORD_YEARS } }, { transaction });
    }
    return ended;
  });
  if (result.purchases || result.notes || result.accounts) {
    ctx.logger.info({ ...result, years: FISCAL_RECORD_YEARS }, 'fiscal records of deleted accounts past their period ended');
  }
  return result;
}
