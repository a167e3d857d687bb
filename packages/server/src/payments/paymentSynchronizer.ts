/**
 * The one way a payment's state changes: the provider's own answer about it (never a webhook
 * body, never a client). Reads happen outside the transaction; the change happens inside one,
 * with the payment, then the purchase, then the user locked in that order everywhere.
 * Applying the same answer twice changes nothing.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { AppContext } from '../context.js';
import type { Payment, Purchase } from '../models/index.js';
import type { ProviderPayment } from './providers/index.js';
import { approvePurchase } from './purchaseApprover.js';
import { closePurchase } from './purchaseCloser.js';
import { refundPurchase } from './purchaseRefunder.js';
import { auditPurchaseTransition } from './purchaseTransition.js';
import type { AuditActor } from '../audit/actor.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

export interface SyncResult {
  payment: Payment;
  purchase: Purchase | null;
  /** Whether the purchase changed state. */
  changed: boolean;
}

export interface SyncOptions {
  actor: string;
  /** Reason written on the transition instead of the default one. */
  reason?: string;
  /**
   * The change is a person's decision (an admin approving, refunding or cancelling a customer's
   * purchase): a state change is recorded in the audit trail as theirs, in the same transaction.
   */
  audit?: AuditActor;
}

const DEFAULT_REASONS = {
  approved: 'aprovado pelo provedor',
  rejected: 'rejeitado pelo provedor',
  cancelled: 'cancelado no provedor',
  refunded: 'reembolsado no provedor',
} as const;

/** 'Pagamento PIX aprovado pelo provedor', 'Pagamento com cartão rejeitado pelo provedor', … */
function defaultReason(payment: Payment, what: keyof typeof DEFAULT_REASONS): string {
  const subject = payment.method === 'pix' ? (what === 'cancelled' ? 'Cobrança PIX' : 'Pagamento PIX') : payment.method === 'boleto' ? 'Boleto' : payment.method === 'card' ? 'Pagamento com cartão' : 'Pagamento';
  return `${subject} ${DEFAULT_REASONS[what]}`;
}

async function lockPayment(ctx: Ctx, id: string, transaction: Transaction): Promise<Payment> {
  const payment = await ctx.models.Payment.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
  if (!payment) throw new Error(`payment ${id} vanished`);
  return payment;
}

/** Applies what the provider said about a payment. */
export async function applyProviderPayment(ctx: Ctx, paymentId: string, remote: ProviderPayment, opts: SyncOptions): Promise<SyncResult> {
  return ctx.sequelize.transaction(async (transaction) => {
    const payment = await lockPayment(ctx, paymentId, transaction);
    const log = ctx.logger.child({ paymentId, provider: payment.provider, providerPaymentId: payment.providerPaymentId });
    if (remote.id !== payment.providerPaymentId) throw new Error(`provider payment ${remote.id} is not ${payment.providerPaymentId}`);
    if (remote.externalReference && remote.externalReference !== payment.purchaseId) {
      // A renewal's charges name the renewal, not the purchase each one pays.
      const owner = await ctx.models.Purchase.findByPk(payment.purchaseId, { transaction, attributes: ['id', 'renewalId'] });
      if (!owner?.renewalId || owner.renewalId !== remote.externalReference) {
        log.error({ externalReference: remote.externalReference }, 'provider payment belongs to another purchase; ignored');
        return { payment, purchase: null, changed: false };
      }
    }
    const now = new Date();
    payment.providerStatus = remote.rawStatus;
    payment.providerStatusDetail = remote.statusDetail;
    payment.lastSyncedAt = now;
    if (remote.installments !== null) payment.installments = remote.installments;
    if (payment.method === 'boleto' && remote.ticketUrl) payment.ticketUrl = remote.ticketUrl;
    const base = { transaction, actor: opts.actor, now };
    let change: { changed: boolean; purchase: Purchase | null } = { changed: false, purchase: null };
    switch (remote.status) {
      case 'approved':
        if (remote.amountCents !== payment.amountCents || remote.currency !== payment.currency) {
          log.error(
            { remoteAmount: remote.amountCents, amount: payment.amountCents, remoteCurrency: remote.currency, currency: payment.currency },
            'approved amount or currency differs from the charge; not applied',
          );
          break;
        }
        if (payment.status !== 'approved' && payment.status !== 'refunded') {
          payment.status = 'approved';
          payment.approvedAt = remote.approvedAt ?? now;
        }
        change = await approvePurchase(ctx, payment.purchaseId, { ...base, reason: opts.reason ?? `${defaultReason(payment, 'approved')} (${payment.provider})` });
        break;
      case 'rejected':
      case 'cancelled':
        if (payment.status === 'pending') payment.status = remote.status;
        if (payment.status === remote.status) {
          const detail = remote.statusDetail ? `: ${remote.statusDetail}` : '';
          change = await closePurchase(ctx, payment.purchaseId, remote.status, { ...base, reason: opts.reason ?? `${defaultReason(payment, remote.status)}${detail}` });
        }
        break;
      case 'refunded':
        if (payment.status === 'approved') payment.status = 'refunded';
        if (payment.status === 'refunded') {
          change = await refundPurchase(ctx, payment.purchaseId, { ...base, reason: opts.reason ?? `${defaultReason(payment, 'refunded')} (${remote.rawStatus})` });
        }
        break;
      case 'in_mediation':
        log.warn({ status: remote.rawStatus }, 'payment in mediation (payer dispute); nothing granted or taken');
        break;
      case 'unknown':
        log.error({ status: remote.rawStatus }, 'unknown provider status; ignored');
        break;
      case 'pending':
        break;
    }
    await payment.save({ transaction });
    if (opts.audit && change.changed && change.purchase) await auditPurchaseTransition(ctx, opts.audit, change.purchase, transaction, { paymentId: payment.id });
    return { payment, purchase: change.purchase, changed: change.changed };
  });
}

/** A payment is read back from its provider at most this often by polls and unsigned webhooks. */
export const PROVIDER_READ_INTERVAL_MS = 5000;

/** Rows read back from a provider on a claim: payments, hosted-checkout purchases, renewals. */
const READ_TABLES = { payment: 'payments', purchase: 'purchases', renewal: 'renewals' } as const;

/**
 * claimProviderRead for a purchase's hosted checkout or a renewal: one conditional UPDATE of
 * its lastSyncedAt, so that pollers in every process share one provider read per interval.
 */
export async function claimRowRead(ctx: Pick<Ctx, 'sequelize'>, kind: keyof typeof READ_TABLES, id: string, now = new Date()): Promise<boolean> {
  const due = new Date(now.getTime() - PROVIDER_READ_INTERVAL_MS);
  const [, count] = await ctx.sequelize.query(
    `UPDATE ${READ_TABLES[kind]} SET "lastSyncedAt" = :now WHERE id = :id AND ("lastSyncedAt" IS NULL OR "lastSyncedAt" <= :due)`,
    { replacements: { now, id, due }, type: QueryTypes.UPDATE },
  );
  return count === 1;
}

/**
 * Takes the next read of a payment from its provider: false when it was read (or taken by another
 * request, in any process) less than PROVIDER_READ_INTERVAL_MS ago. One conditional UPDATE of
 * lastSyncedAt, so concurrent callers get one read between them; a read that then fails waits
 * out the interval too.
 */
export async function claimProviderRead(ctx: Pick<Ctx, 'models'>, payment: Payment, now = new Date()): Promise<boolean> {
  const due = new Date(now.getTime() - PROVIDER_READ_INTERVAL_MS);
  if (payment.lastSyncedAt && payment.lastSyncedAt > due) return false;
  const [claimed] = await ctx.models.Payment.update(
    { lastSyncedAt: now },
    { where: { id: payment.id, [Op.or]: [{ lastSyncedAt: null }, { lastSyncedAt: { [Op.lte]: due } }] } },
  );
  return claimed === 1;
}

/** Reads the payment back from its provider and applies the answer. */
export async function syncPayment(ctx: Ctx, paymentId: string, opts: SyncOptions): Promise<SyncResult> {
  const payment = await ctx.models.Payment.findByPk(paymentId);
  if (!payment) throw new Error(`payment ${paymentId} not found`);
  if (!payment.providerPaymentId) return { payment, purchase: null, changed: false };
  const provider = await ctx.payments.provider(payment.provider);
  const remote = await provider.getPayment(payment.providerPaymentId);
  return applyProviderPayment(ctx, paymentId, remote, opts);
}

/** Cancels a pending payment on our side only (the provider could not be told, or never had it). */
export async function cancelPaymentLocally(ctx: Ctx, paymentId: string, opts: SyncOptions & { reason: string }): Promise<SyncResult> {
  return ctx.sequelize.transaction(async (transaction) => {
    const payment = await lockPayment(ctx, paymentId, transaction);
    if (payment.status !== 'pending') return { payment, purchase: null, changed: false };
    payment.status = 'cancelled';
    const change = await closePurchase(ctx, payment.purchaseId, 'cancelled', { transaction, actor: opts.actor, reason: opts.reason });
    await payment.save({ transaction });
    if (opts.audit && change.changed && change.purchase) await auditPurchaseTransition(ctx, opts.audit, change.purchase, transaction, { paymentId: payment.id });
    return { payment, purchase: change.purchase, changed: change.changed };
  });
}
