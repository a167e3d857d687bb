/**
 * The purchase state machine (docs/decisions.md, "Credits and plans"): pending → approved | rejected |
 * cancelled; approved → refunded; a late approval of a cancelled or rejected charge is
 * accepted (a PIX can land at the last second). Every change is written to
 * purchase_transitions with time, reason and actor, in the caller's transaction.
 */
import type { Sequelize, Transaction } from 'sequelize';
import type { PurchaseStatus } from '@aabify/shared';
import type { Models, Purchase } from '../models/index.js';
import type { AuditActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';

/** For each status, the statuses it may be reached from. */
export const PURCHASE_TRANSITIONS: Record<PurchaseStatus, readonly PurchaseStatus[]> = {
  pending: [],
  approved: ['pending', 'cancelled', 'rejected'],
  rejected: ['pending'],
  cancelled: ['pending'],
  refunded: ['approved'],
};

export interface TransitionOptions {
  transaction: Transaction;
  /** 'user:<id>', 'admin:<id>', 'webhook:mercadopago', 'job:payments:expire', 'system'. */
  actor: string;
  reason: string;
  now?: Date;
}

export function canTransition(from: PurchaseStatus, to: PurchaseStatus): boolean {
  return PURCHASE_TRANSITIONS[to].includes(from);
}

/** The purchase with its row locked for the rest of the transaction, or null. */
export async function lockPurchase(models: Pick<Models, 'Purchase'>, id: string, transaction: Transaction): Promise<Purchase | null> {
  return models.Purchase.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
}

/**
 * Moves a locked purchase to `to` and writes the transition. Answers false (and changes
 * nothing) when it is already there or the move is not allowed.
 */
export async function transitionPurchase(
  models: Pick<Models, 'PurchaseTransition'>,
  purchase: Purchase,
  to: PurchaseStatus,
  opts: TransitionOptions,
  changes: Partial<Pick<Purchase, 'planGrant' | 'appliedAt' | 'rejectionReason' | 'refundReason' | 'notes'>> = {},
): Promise<boolean> {
  const from = purchase.status;
  if (from === to || !canTransition(from, to)) return false;
  const now = opts.now ?? new Date();
  const stamp: Partial<Pick<Purchase, 'approvedAt' | 'rejectedAt' | 'cancelledAt' | 'refundedAt'>> = {};
  if (to === 'approved') stamp.approvedAt = now;
  if (to === 'rejected') stamp.rejectedAt = now;
  if (to === 'cancelled') stamp.cancelledAt = now;
  if (to === 'refunded') stamp.refundedAt = now;
  await purchase.update({ ...changes, ...stamp, status: to }, { transaction: opts.transaction });
  await models.PurchaseTransition.create(
    { purchaseId: purchase.id, fromStatus: from, toStatus: to, reason: opts.reason, actor: opts.actor, at: now },
    { transaction: opts.transaction },
  );
  return true;
}

const AUDITED: Partial<Record<PurchaseStatus, 'purchase.approved' | 'purchase.refunded' | 'purchase.cancelled'>> = {
  approved: 'purchase.approved',
  refunded: 'purchase.refunded',
  cancelled: 'purchase.cancelled',
};

/**
 * Records in the audit trail the purchase's last transition as the actor's doing (an admin
 * approving, refunding or cancelling a customer's purchase), in the transition's transaction.
 */
export async function auditPurchaseTransition(
  ctx: { sequelize: Sequelize; models: Pick<Models, 'PurchaseTransition'> },
  actor: AuditActor,
  purchase: Purchase,
  transaction: Transaction,
  details: Record<string, unknown> = {},
): Promise<void> {
  const last = await ctx.models.PurchaseTransition.findOne({ where: { purchaseId: purchase.id }, order: [['at', 'DESC'], ['id', 'DESC']], transaction });
  const action = last ? AUDITED[last.toStatus] : undefined;
  if (!last || !action) return;
  await recordAudit(
    ctx,
    {
      action,
      actor,
      target: { type: 'purchase', id: purchase.id, label: purchase.planSnapshot?.name ?? null },
      accountId: purchase.userId,
      before: { status: last.fromStatus },
      after: { status: last.toStatus },
      details: { reason: last.reason, amountCents: purchase.amountCents, currency: purchase.currency, ...details },
    },
    { transaction },
  );
}
