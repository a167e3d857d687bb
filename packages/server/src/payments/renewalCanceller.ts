/**
 * "Cancelar renovação": the provider stops charging the card (Mercado Pago's preapproval
 * cancelled, the Stripe subscription cancelled, the sandbox's); the period already paid stays
 * until its end. The provider's answer is applied like any read-back of the renewal.
 */
import { PAYMENT_MESSAGES as M } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Renewal } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { isPaymentProviderError, providerErrorToApi } from './providers/index.js';
import { applyRenewalState } from './checkoutSynchronizer.js';
import type { SyncOptions } from './paymentSynchronizer.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

export async function cancelRenewal(ctx: Ctx, renewal: Renewal, opts: Pick<SyncOptions, 'actor' | 'reason' | 'audit'>): Promise<Renewal> {
  if (renewal.status === 'cancelled') throw ApiError.conflict(M.renewalAlreadyCancelled, 'RENEWAL_ALREADY_CANCELLED');
  const mapped = (err: unknown): never => {
    throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
  };
  if (renewal.providerRenewalId) {
    const provider = await ctx.payments.provider(renewal.provider).catch(mapped);
    const remote = await provider.cancelRenewal(renewal.providerRenewalId).catch(mapped);
    await applyRenewalState(ctx, renewal.id, remote, opts);
  } else {
    await applyRenewalState(
      ctx,
      renewal.id,
      { id: '', status: 'cancelled', rawStatus: 'cancelled', url: null, externalReference: renewal.id, amountCents: renewal.amountCents, currency: renewal.currency },
      opts,
    );
  }
  const after = await ctx.models.Renewal.findByPk(renewal.id, { rejectOnEmpty: true });
  // A provider that still calls it active did not stop it: say so rather than pretend.
  if (after.status !== 'cancelled') throw new ApiError(502, 'RENEWAL_NOT_CANCELLED', M.providerUnavailable);
  return after;
}
