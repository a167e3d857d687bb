/**
 * Billing details (docs/payments.md, "Billing details"): the account's current ones, saved from
 * Conta › Dados de faturamento or the purchase modal, and the copy each purchase keeps. Every
 * purchase needs them (a Brazilian receipt and NFS-e name the buyer), so creating one without
 * them is refused before anything is written.
 */
import type { Transaction } from 'sequelize';
import { BILLING_MESSAGES, billingDetailsSchema, type BillingDetails } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import type { SignedInActor } from '../audit/actor.js';
import { auditChanges, recordAudit } from '../audit/recorder.js';
import { userAuditTarget } from '../accounts/userPresenter.js';
import { ApiError } from '../http/errors.js';

/** The user's billing details to copy onto a new purchase; 400 BILLING_DETAILS_REQUIRED without them. */
export function billingSnapshotFor(user: Pick<User, 'billingDetails'>): BillingDetails {
  // Stored details are re-checked: a row written by an older version (or by hand) must not reach a receipt half-filled.
  const details = user.billingDetails;
  if (!details || !billingDetailsSchema.isValidSync(details)) throw new ApiError(400, 'BILLING_DETAILS_REQUIRED', BILLING_MESSAGES.required);
  return details;
}

/** What the audit trail keeps of a change: which fields changed, never their values (personal data). */
function changedFields(before: BillingDetails | null, after: BillingDetails): string[] {
  const { before: b } = auditChanges({ ...(before ?? {}) }, { ...after });
  return Object.keys(b);
}

/** Saves the account's billing details; old purchases keep their own copies. */
export async function saveBillingDetails(ctx: Pick<AppContext, 'sequelize' | 'models'>, actor: SignedInActor, user: User, details: BillingDetails): Promise<User> {
  return ctx.sequelize.transaction(async (transaction: Transaction) => {
    const locked = await ctx.models.User.findByPk(user.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!locked) throw ApiError.notFound();
    const fields = changedFields(locked.billingDetails, details);
    if (fields.length === 0) return locked;
    const first = locked.billingDetails === null;
    await locked.update({ billingDetails: details }, { transaction });
    await recordAudit(
      ctx,
      { action: 'account.billing_updated', actor, target: userAuditTarget(locked), accountId: locked.id, details: { fields, first } },
      { transaction },
    );
    return locked;
  });
}
