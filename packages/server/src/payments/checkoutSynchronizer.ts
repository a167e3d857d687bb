/**
 * Reading hosted checkouts and renewals back from their provider: the payments made on a
 * purchase's checkout, a renewal's state and the charges it made. Every answer goes through
 * the recorder and the synchronizer (one row per provider payment, the plan applied once); a
 * renewal's own state changes under its row lock. Webhooks, the return page's polling and the
 * reconciliation job all call these; applying the same answer twice changes nothing.
 */
import type { Transaction } from 'sequelize';
import type { AppContext } from '../context.js';
import type { Payment, Purchase, Renewal } from '../models/index.js';
import type { ProviderPayment, ProviderRenewal } from './providers/index.js';
import { applyProviderPayment, type SyncOptions, type SyncResult } from './paymentSynchronizer.js';
import { paymentRowFor, recordProviderPayment } from './paymentRecorder.js';
import { closePurchase } from './purchaseCloser.js';
import { recordAudit } from '../audit/recorder.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

export interface CheckoutSyncResult {
  /** Whether any purchase changed state. */
  changed: boolean;
}

/** Reads the payments made on a purchase's hosted checkout and applies them (the oldest first, so the newest decides). */
export async function syncCheckout(ctx: Ctx, purchaseId: string, opts: SyncOptions): Promise<CheckoutSyncResult> {
  const purchase = await ctx.models.Purchase.findByPk(purchaseId);
  if (!purchase?.checkoutId || purchase.provider === 'manual') return { changed: false };
  if (purchase.renewalId) return syncRenewal(ctx, purchase.renewalId, opts);
  const provider = await ctx.payments.provider(purchase.provider);
  const remotes = await provider.checkoutPayments(purchase.checkoutId, purchase.id);
  let changed = false;
  for (const remote of [...remotes].reverse()) {
    const result = await recordProviderPayment(ctx, purchase, remote, opts);
    changed ||= result?.changed ?? false;
  }
  return { changed };
}

/** Reads a renewal's state and its charges back from the provider and applies them. */
export async function syncRenewal(ctx: Ctx, renewalId: string, opts: SyncOptions): Promise<CheckoutSyncResult> {
  const renewal = await ctx.models.Renewal.findByPk(renewalId);
  if (!renewal?.providerRenewalId) return { changed: false };
  const provider = await ctx.payments.provider(renewal.provider);
  const remote = await provider.getRenewal(renewal.providerRenewalId);
  let changed = await applyRenewalState(ctx, renewal.id, remote, opts);
  if (remote.status !== 'pending' || renewal.provider === 'sandbox') {
    for (const charge of await provider.renewalCharges(remote.id)) {
      const result = await recordRenewalCharge(ctx, renewal.id, charge, opts);
      changed ||= result?.changed ?? false;
    }
  }
  return { changed };
}

/**
 * What the provider says of a renewal: authorized → active; cancelled → cancelled (a pending
 * first purchase that was never paid is cancelled with it; what was paid stays). Stripe names a
 * renewal by its Checkout Session until the subscription exists: the id is updated then.
 */
export async function applyRenewalState(ctx: Ctx, renewalId: string, remote: ProviderRenewal, opts: SyncOptions): Promise<boolean> {
  return ctx.sequelize.transaction(async (transaction) => {
    const renewal = await ctx.models.Renewal.findByPk(renewalId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!renewal) return false;
    if (remote.externalReference && remote.externalReference !== renewal.id) {
      ctx.logger.error({ renewalId, providerRenewalId: remote.id, externalReference: remote.externalReference }, 'provider renewal belongs to another renewal; ignored');
      return false;
    }
    if (remote.id && remote.id !== renewal.providerRenewalId) renewal.providerRenewalId = remote.id;
    const before = renewal.status;
    const now = new Date();
    let changed = false;
    if (remote.status === 'active' && renewal.status === 'pending') {
      renewal.status = 'active';
      changed = true;
    } else if (remote.status === 'cancelled' && renewal.status !== 'cancelled') {
      renewal.status = 'cancelled';
      renewal.cancelledAt = now;
      renewal.cancelReason = opts.reason ?? 'Cancelada no provedor';
      changed = true;
      const unpaid = await ctx.models.Purchase.findAll({ where: { renewalId: renewal.id, status: 'pending' }, transaction });
      for (const purchase of unpaid) {
        const payments = await ctx.models.Payment.count({ where: { purchaseId: purchase.id, status: 'pending' }, transaction });
        if (payments === 0) await closePurchase(ctx, purchase.id, 'cancelled', { transaction, actor: opts.actor, reason: 'Renovação automática cancelada antes do pagamento' });
      }
    } else if (remote.status === 'unknown') {
      ctx.logger.error({ renewalId, status: remote.rawStatus }, 'unknown provider renewal status; ignored');
    }
    await renewal.save({ transaction });
    if (changed && opts.audit && renewal.status === 'cancelled') {
      await recordAudit(
        ctx,
        {
          action: 'renewal.cancelled',
          actor: opts.audit,
          target: { type: 'renewal', id: renewal.id, label: renewal.planSnapshot?.name ?? null },
          accountId: renewal.userId,
          before: { status: before },
          after: { status: renewal.status },
          details: { reason: renewal.cancelReason, provider: renewal.provider, amountCents: renewal.amountCents, currency: renewal.currency },
        },
        { transaction },
      );
    }
    if (changed) ctx.logger.info({ renewalId, status: renewal.status, actor: opts.actor }, 'renewal state changed');
    return changed;
  });
}

/** The purchase a new charge of a renewal pays: its first purchase while nothing was charged, else a new one. */
async function purchaseForCharge(ctx: Ctx, renewal: Renewal, opts: SyncOptions, transaction: Transaction): Promise<Purchase> {
  const first = await ctx.models.Purchase.findOne({ where: { renewalId: renewal.id, status: 'pending' }, order: [['createdAt', 'ASC']], transaction });
  if (first && (await ctx.models.Payment.count({ where: { purchaseId: first.id }, transaction })) === 0) return first;
  // Each period's purchase copies the billing details the payer has now (a receipt names the buyer as at that charge).
  const payer = await ctx.models.User.findByPk(renewal.userId, { attributes: ['id', 'billingDetails'], paranoid: false, transaction });
  const purchase = await ctx.models.Purchase.create(
    {
      userId: renewal.userId,
      planId: renewal.planId,
      planSnapshot: renewal.planSnapshot,
      amountCents: renewal.amountCents,
      currency: renewal.currency,
      provider: renewal.provider,
      renewalId: renewal.id,
      method: 'card',
      billingSnapshot: payer?.billingDetails ?? null,
    },
    { transaction },
  );
  await ctx.models.PurchaseTransition.create(
    { purchaseId: purchase.id, fromStatus: null, toStatus: 'pending', reason: 'Cobrança da renovação automática', actor: opts.actor },
    { transaction },
  );
  return purchase;
}

/**
 * A charge a renewal made, read back from the provider: recorded once under the purchase it
 * pays (the first purchase, or a new one per period) and applied — an approved charge extends
 * the subscription once; a refused one leaves the paid period as it is, tells the customer by
 * e-mail (once per charge) and is shown on the renewal.
 */
export async function recordRenewalCharge(ctx: Ctx, renewalId: string, remote: ProviderPayment, opts: SyncOptions): Promise<SyncResult | null> {
  const renewal = await ctx.models.Renewal.findByPk(renewalId);
  if (!renewal) return null;
  const ours = remote.externalReference ? remote.externalReference === renewal.id : remote.renewalId !== null && remote.renewalId === renewal.providerRenewalId;
  if (!ours) {
    ctx.logger.error({ renewalId, providerPaymentId: remote.id, externalReference: remote.externalReference }, 'renewal charge belongs to another renewal; not recorded');
    return null;
  }
  let payment: Payment | null = await ctx.models.Payment.findOne({ where: { provider: renewal.provider, providerPaymentId: remote.id } });
  if (!payment) {
    payment = await ctx.sequelize.transaction(async (transaction) => {
      await ctx.models.Renewal.findByPk(renewal.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
      const again = await ctx.models.Payment.findOne({ where: { provider: renewal.provider, providerPaymentId: remote.id }, transaction });
      if (again) return again;
      const purchase = await purchaseForCharge(ctx, renewal, opts, transaction);
      return paymentRowFor(ctx, purchase, remote, transaction);
    });
  }
  const owner = await ctx.models.Purchase.findByPk(payment.purchaseId, { attributes: ['id', 'renewalId'] });
  if (owner?.renewalId !== renewal.id) {
    ctx.logger.error({ renewalId, paymentId: payment.id }, 'provider payment is recorded under another purchase; not applied as a renewal charge');
    return null;
  }
  const result = await applyProviderPayment(ctx, payment.id, remote, opts);
  if (result.changed && result.purchase) {
    const purchase = result.purchase;
    if (purchase.status === 'approved') {
      await renewal.update({ lastChargedAt: new Date(), status: renewal.status === 'pending' ? 'active' : renewal.status });
    } else if (purchase.status === 'rejected') {
      await renewal.update({ lastFailureAt: new Date(), lastFailureReason: remote.statusDetail ?? remote.rawStatus });
      // The first charge is refused in front of the payer, on the provider's page; later ones by surprise.
      if (!purchase.checkoutId) await ctx.mail.renewalFailed(purchase);
    }
  }
  return result;
}
