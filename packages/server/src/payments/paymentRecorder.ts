/**
 * A payment the provider made on a hosted checkout or a renewal (card, boleto, PIX on the
 * provider's page) is known to us only when we read it back. Recording it gives it a row of
 * ours under its purchase — one row per provider payment, whoever asks first (webhook, the
 * return page's polling, the reconciliation job); the database's unique (provider,
 * providerPaymentId) makes concurrent recorders meet on one row — and then its state is applied
 * as every payment's is (paymentSynchronizer.applyProviderPayment).
 */
import type { Transaction } from 'sequelize';
import type { AppContext } from '../context.js';
import type { Payment, Purchase } from '../models/index.js';
import type { ProviderPayment } from './providers/index.js';
import { applyProviderPayment, type SyncOptions, type SyncResult } from './paymentSynchronizer.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

/** The payment's row, made in the caller's transaction when it does not exist yet. */
export async function paymentRowFor(ctx: Pick<Ctx, 'models'>, purchase: Purchase, remote: ProviderPayment, transaction: Transaction): Promise<Payment> {
  const { Payment } = ctx.models;
  const provider = purchase.provider === 'manual' ? null : purchase.provider;
  if (!provider) throw new Error(`purchase ${purchase.id} has no provider`);
  const [row] = await Payment.findOrCreate({
    where: { provider, providerPaymentId: remote.id },
    defaults: {
      purchaseId: purchase.id,
      userId: purchase.userId,
      provider,
      providerPaymentId: remote.id,
      method: remote.method,
      installments: remote.installments,
      // The payment is the purchase's: its amount is what we sold, and the provider's answer must match it.
      amountCents: purchase.amountCents,
      currency: purchase.currency,
      ticketUrl: remote.method === 'boleto' ? remote.ticketUrl : null,
      // Only PIX charges expire on our clock; the provider ends a card or boleto payment itself.
      expiresAt: null,
      providerStatus: remote.rawStatus,
      providerStatusDetail: remote.statusDetail,
    },
    transaction,
  });
  if (row.purchaseId !== purchase.id) throw new Error(`provider payment ${remote.id} already belongs to purchase ${row.purchaseId}`);
  await purchase.update({ method: remote.method, installments: remote.installments }, { transaction });
  return row;
}

/**
 * Records a payment read back for a purchase and applies it. A payment that names another
 * purchase (or renewal) than this one is refused: nothing is recorded.
 */
export async function recordProviderPayment(ctx: Ctx, purchase: Purchase, remote: ProviderPayment, opts: SyncOptions): Promise<SyncResult | null> {
  const reference = remote.externalReference;
  if (reference !== purchase.id && (!purchase.renewalId || reference !== purchase.renewalId)) {
    ctx.logger.error({ purchaseId: purchase.id, providerPaymentId: remote.id, externalReference: reference }, 'provider payment names another purchase; not recorded');
    return null;
  }
  const payment = await ctx.sequelize.transaction(async (transaction) => {
    const locked = await ctx.models.Purchase.findByPk(purchase.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE, rejectOnEmpty: true });
    return paymentRowFor(ctx, locked, remote, transaction);
  });
  return applyProviderPayment(ctx, payment.id, remote, opts);
}
