/**
 * Approving a purchase applies its plan exactly once. The purchase row lock serialises
 * concurrent approvals (webhook, polling, admin, expiry job); the second one finds it
 * approved and changes nothing. The unique (purchaseId, toStatus) transition backs this up
 * in the database.
 */
import type { Purchase } from '../models/index.js';
import type { AppContext } from '../context.js';
import { applyPlan } from '../plans/planApplier.js';
import { lockPurchase, transitionPurchase, type TransitionOptions } from './purchaseTransition.js';

export interface StateChange {
  changed: boolean;
  purchase: Purchase | null;
}

export async function approvePurchase(ctx: Pick<AppContext, 'models' | 'logger' | 'mail' | 'fiscal'>, purchaseId: string, opts: TransitionOptions): Promise<StateChange> {
  const { models } = ctx;
  const { transaction } = opts;
  const purchase = await lockPurchase(models, purchaseId, transaction);
  if (!purchase) return { changed: false, purchase: null };
  if (purchase.status === 'approved' || purchase.status === 'refunded') return { changed: false, purchase };
  const user = await models.User.findByPk(purchase.userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE, paranoid: false });
  if (!user) throw new Error(`purchase ${purchase.id} has no user`);
  const now = opts.now ?? new Date();
  const grant = applyPlan(user, purchase, now);
  const moved = await transitionPurchase(models, purchase, 'approved', { ...opts, now }, { planGrant: grant, appliedAt: now });
  if (!moved) return { changed: false, purchase };
  await user.save({ transaction });
  if (purchase.planId) {
    await models.Plan.increment({ salesCount: 1, totalRevenueCents: purchase.amountCents }, { where: { id: purchase.planId }, transaction });
  }
  ctx.logger.info({ purchaseId, userId: user.id, actor: opts.actor, grant }, 'purchase approved; plan applied');
  await ctx.mail.purchaseApproved(purchase, user, { transaction });
  await ctx.fiscal.queueForApproved(purchase, transaction);
  return { changed: true, purchase };
}
