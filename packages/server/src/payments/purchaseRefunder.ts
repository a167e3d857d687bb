/** A refund (or chargeback) of an approved purchase takes back what of its plan is unspent, once. */
import type { AppContext } from '../context.js';
import type { StateChange } from './purchaseApprover.js';
import { revokePlan } from '../plans/planApplier.js';
import { lockPurchase, transitionPurchase, type TransitionOptions } from './purchaseTransition.js';

export async function refundPurchase(ctx: Pick<AppContext, 'models' | 'logger' | 'mail' | 'fiscal'>, purchaseId: string, opts: TransitionOptions): Promise<StateChange> {
  const { models } = ctx;
  const { transaction } = opts;
  const purchase = await lockPurchase(models, purchaseId, transaction);
  if (!purchase) return { changed: false, purchase: null };
  if (purchase.status !== 'approved') return { changed: false, purchase };
  const user = await models.User.findByPk(purchase.userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE, paranoid: false });
  if (!user) throw new Error(`purchase ${purchase.id} has no user`);
  const now = opts.now ?? new Date();
  const grant = purchase.planGrant ? revokePlan(user, purchase.planGrant, purchase.appliedAt ?? now, now) : null;
  // A subscriber who bought this credit pack became a credit user: the subscription they still
  // paid for comes back with the pack's refund.
  const subscriptionRuns = user.subscriptionExpiresAt !== null && user.subscriptionExpiresAt.getTime() > now.getTime();
  if (grant?.type === 'credit' && grant.previousUserType === 'subscription' && user.currentPurchaseId === purchase.id && subscriptionRuns) {
    user.userType = 'subscription';
  }
  const moved = await transitionPurchase(models, purchase, 'refunded', { ...opts, now }, { planGrant: grant, refundReason: opts.reason });
  if (!moved) return { changed: false, purchase };
  await user.save({ transaction });
  if (purchase.planId) {
    await models.Plan.decrement({ salesCount: 1, totalRevenueCents: purchase.amountCents }, { where: { id: purchase.planId }, transaction });
  }
  ctx.logger.info({ purchaseId, userId: user.id, actor: opts.actor, grant }, 'purchase refunded; unspent plan taken back');
  await ctx.mail.purchaseRefunded(purchase, user, { transaction });
  await ctx.fiscal.cancelForRefund(purchase.id, transaction);
  return { changed: true, purchase };
}
