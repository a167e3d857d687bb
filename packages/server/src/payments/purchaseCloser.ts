/** A pending purchase that will not be paid: rejected by the provider, or cancelled (by the buyer, an admin or expiry). */
import type { AppContext } from '../context.js';
import type { StateChange } from './purchaseApprover.js';
import { lockPurchase, transitionPurchase, type TransitionOptions } from './purchaseTransition.js';

export async function closePurchase(
  ctx: Pick<AppContext, 'models' | 'logger'>,
  purchaseId: string,
  to: 'rejected' | 'cancelled',
  opts: TransitionOptions,
): Promise<StateChange> {
  const purchase = await lockPurchase(ctx.models, purchaseId, opts.transaction);
  if (!purchase) return { changed: false, purchase: null };
  const changed = await transitionPurchase(ctx.models, purchase, to, opts, to === 'rejected' ? { rejectionReason: opts.reason } : {});
  if (changed) ctx.logger.info({ purchaseId, to, actor: opts.actor, reason: opts.reason }, 'purchase closed');
  return { changed, purchase };
}
