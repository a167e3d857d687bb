/**
 * The `payments:expire` job: pending charges past their expiry are read back first (a PIX
 * paid at the last second is approved, not lost), then cancelled at the provider and here.
 * It also covers lost webhooks for everything that expires.
 */
import { Op } from 'sequelize';
import type { AppContext } from '../context.js';
import { isRefusedChange, type ProviderPayment } from './providers/index.js';
import { applyProviderPayment, cancelPaymentLocally, syncPayment } from './paymentSynchronizer.js';
import { syncCheckout } from './checkoutSynchronizer.js';
import { CHECKOUT_LIFETIME_MS } from './checkoutCreator.js';
import { closePurchase } from './purchaseCloser.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

export const EXPIRED_REASON = 'PIX expirado';
const ACTOR = 'job:payments:expire';

export interface ExpiryReport {
  checked: number;
  cancelled: number;
  approved: number;
  failed: number;
}

export async function expirePendingPayments(ctx: Ctx, now: Date = new Date(), limit = 100): Promise<ExpiryReport> {
  const due = await ctx.models.Payment.findAll({
    where: { status: 'pending', expiresAt: { [Op.lte]: now } },
    order: [['expiresAt', 'ASC']],
    limit,
  });
  const report: ExpiryReport = { checked: due.length, cancelled: 0, approved: 0, failed: 0 };
  for (const payment of due) {
    try {
      if (!payment.providerPaymentId) {
        await cancelPaymentLocally(ctx, payment.id, { actor: ACTOR, reason: EXPIRED_REASON });
        report.cancelled++;
        await ctx.mail.pixExpired(payment);
        continue;
      }
      const provider = await ctx.payments.provider(payment.provider);
      let remote: ProviderPayment = await provider.getPayment(payment.providerPaymentId);
      if (remote.status === 'pending') {
        try {
          remote = await provider.cancelPayment(payment.providerPaymentId);
        } catch (err) {
          // Paid or closed meanwhile: the provider's current answer decides.
          if (!isRefusedChange(err)) throw err;
          remote = await provider.getPayment(payment.providerPaymentId);
        }
      }
      const result = await applyProviderPayment(ctx, payment.id, remote, {
        actor: ACTOR,
        reason: remote.status === 'cancelled' ? EXPIRED_REASON : undefined,
      });
      if (result.payment.status === 'pending') {
        // The provider still calls it pending: close it here; a late approval is still accepted.
        await cancelPaymentLocally(ctx, payment.id, { actor: ACTOR, reason: EXPIRED_REASON });
      }
      const after = await ctx.models.Payment.findByPk(payment.id);
      if (after?.status === 'approved') report.approved++;
      else {
        report.cancelled++;
        if (after?.status === 'cancelled') await ctx.mail.pixExpired(after);
      }
    } catch (err) {
      report.failed++;
      ctx.logger.warn({ err, paymentId: payment.id }, 'expiring a PIX charge failed; retried on the next run');
    }
  }
  if (report.checked) ctx.logger.info(report, 'payments:expire');
  return report;
}

/** A pending card or boleto payment is read back at least this often, in case its notification was lost. */
export const HOSTED_RECHECK_MS = 60 * 60_000;
export const CHECKOUT_EXPIRED_REASON = 'Checkout expirado sem pagamento';

export interface ReconcileReport {
  read: number;
  closed: number;
  failed: number;
}

/**
 * Hosted payments the provider decides on its own time (a card in review, a boleto for days):
 * pending ones not read for an hour are read back. A hosted-checkout purchase whose checkout
 * took no payment within its lifetime is read one last time and then closed as cancelled (a
 * renewal waits for its payer, and is cancelled by them or the provider).
 */
export async function reconcileHostedPayments(ctx: Ctx, now: Date = new Date(), limit = 50): Promise<ReconcileReport> {
  const report: ReconcileReport = { read: 0, closed: 0, failed: 0 };
  const stale = await ctx.models.Payment.findAll({
    where: {
      status: 'pending',
      expiresAt: null,
      provider: { [Op.ne]: 'sandbox' },
      [Op.or]: [{ lastSyncedAt: null }, { lastSyncedAt: { [Op.lte]: new Date(now.getTime() - HOSTED_RECHECK_MS) } }],
    },
    order: [['createdAt', 'ASC']],
    limit,
  });
  for (const payment of stale) {
    try {
      await syncPayment(ctx, payment.id, { actor: ACTOR });
      report.read++;
    } catch (err) {
      report.failed++;
      ctx.logger.warn({ err, paymentId: payment.id }, 'reading a pending hosted payment back failed; retried later');
    }
  }
  const abandoned = await ctx.models.Purchase.findAll({
    where: { status: 'pending', checkoutId: { [Op.ne]: null }, renewalId: null, createdAt: { [Op.lte]: new Date(now.getTime() - CHECKOUT_LIFETIME_MS) } },
    order: [['createdAt', 'ASC']],
    limit,
  });
  for (const purchase of abandoned) {
    try {
      if (purchase.provider !== 'sandbox') await syncCheckout(ctx, purchase.id, { actor: ACTOR });
      const closed = await ctx.sequelize.transaction(async (transaction) => {
        const underWay = await ctx.models.Payment.count({ where: { purchaseId: purchase.id, status: { [Op.in]: ['pending', 'approved', 'refunded'] } }, transaction });
        if (underWay > 0) return false;
        return (await closePurchase(ctx, purchase.id, 'cancelled', { transaction, actor: ACTOR, reason: CHECKOUT_EXPIRED_REASON })).changed;
      });
      if (closed) report.closed++;
    } catch (err) {
      report.failed++;
      ctx.logger.warn({ err, purchaseId: purchase.id }, 'closing an abandoned checkout failed; retried later');
    }
  }
  if (report.read || report.closed || report.failed) ctx.logger.info(report, 'payments:expire (hosted checkouts)');
  return report;
}
