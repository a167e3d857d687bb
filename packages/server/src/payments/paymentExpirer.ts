/**
 * The `payments:expire` job: pending charges past their expiry are read back first (a PIX
 * paid at the last second is approved, not lost), then cancelled at the provider and here.
 * It also covers lost webhooks for everything that expires.
 */
import { Op } from 'sequelize';
import type { AppContext } from '../context.js';
import { isRefusedChange, type ProviderPayment } from './providers/index.js';
import { applyProviderPayment, cancelPaymentLocally } from './paymentSynchronizer.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail'>;

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
