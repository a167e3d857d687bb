/** Purchases, payments and renewals as clients see them: no provider internals beyond what support needs. */
import {
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  RENEWAL_STATUS_LABELS,
  formatMoney,
  fromCents,
  hasReceipt,
  presentBillingDetails,
  type ApiPixPayment,
  type ApiPurchase,
  type ApiRenewal,
  type PlanSnapshot,
  type PurchaseStatus,
  type PurchaseStatusResponse,
  type PaymentMethod,
  type RenewalStatus,
} from '@aabify/shared';
import type { Payment, Purchase, PurchaseTransition, Renewal } from '../models/index.js';
import { presentFiscalNote } from '../fiscal/notePresenter.js';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
const label = (status: PurchaseStatus): string => PAYMENT_STATUS_LABELS[status];

/** Old or damaged snapshots still read: the name falls back to 'Plano Desconhecido'. */
export function presentSnapshot(snapshot: Partial<PlanSnapshot> | null | undefined): PlanSnapshot {
  return {
    name: snapshot?.name || PAYMENT_MESSAGES.unknownPlan,
    type: snapshot?.type ?? 'credit',
    credits: snapshot?.credits ?? null,
    duration: snapshot?.duration ?? null,
    priceCents: snapshot?.priceCents ?? 0,
    currency: snapshot?.currency ?? 'BRL',
  };
}

export function presentTransition(t: PurchaseTransition) {
  return { from: t.fromStatus, to: t.toStatus, reason: t.reason, at: t.at.toISOString() };
}

export function presentRenewal(renewal: Renewal): ApiRenewal {
  const status: RenewalStatus = renewal.status;
  return {
    id: renewal.id,
    status: renewal.status,
    statusLabel: RENEWAL_STATUS_LABELS[status],
    provider: renewal.provider,
    planId: renewal.planId,
    planName: presentSnapshot(renewal.planSnapshot).name,
    amountCents: renewal.amountCents,
    currency: renewal.currency,
    formattedAmount: formatMoney(renewal.amountCents, renewal.currency),
    frequencyMonths: renewal.frequencyMonths,
    checkoutUrl: renewal.status === 'pending' ? renewal.checkoutUrl : null,
    lastChargedAt: iso(renewal.lastChargedAt),
    lastFailureAt: iso(renewal.lastFailureAt),
    lastFailureReason: renewal.lastFailureReason,
    cancelledAt: iso(renewal.cancelledAt),
    createdAt: renewal.createdAt.toISOString(),
  };
}

/** The payment that speaks for a purchase: its newest (payments as loaded, or the one given). */
function latestOf(payments: Payment[] | undefined): Payment | null {
  if (!payments?.length) return null;
  return [...payments].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/** What a purchase's hosted checkout and boleto offer the buyer while it is pending. */
function pendingLinks(purchase: Purchase, latest: Payment | null): { checkoutUrl: string | null; boletoUrl: string | null } {
  if (purchase.status !== 'pending') return { checkoutUrl: null, boletoUrl: null };
  const boletoUrl = latest?.status === 'pending' && latest.method === 'boleto' ? latest.ticketUrl : null;
  // Back to the provider's page while nothing is under way there (no payment, or only refused ones).
  const underWay = latest !== null && latest.status === 'pending';
  const checkoutUrl = underWay ? null : purchase.renewal ? (purchase.renewal.status === 'pending' ? purchase.renewal.checkoutUrl : null) : purchase.checkoutUrl;
  return { checkoutUrl, boletoUrl };
}

/**
 * A purchase as its buyer and admins see it. `payments` (with method, status and ticketUrl) and
 * `renewal` (and the NFS-e, `fiscalNote`) are read from the row's includes when loaded; `latest` overrides the payments.
 */
export function presentPurchase(purchase: Purchase, opts: { paymentId?: string | null; latest?: Payment | null; transitions?: PurchaseTransition[] } = {}): ApiPurchase {
  const latest = opts.latest !== undefined ? opts.latest : latestOf(purchase.payments);
  const paymentId = opts.paymentId ?? latest?.id ?? null;
  const method: PaymentMethod | null = latest?.method ?? purchase.method ?? null;
  const json: ApiPurchase = {
    id: purchase.id,
    _id: purchase.id,
    userId: purchase.userId,
    planId: purchase.planId,
    paymentId,
    amount: fromCents(purchase.amountCents),
    amountCents: purchase.amountCents,
    currency: purchase.currency,
    formattedAmount: formatMoney(purchase.amountCents, purchase.currency),
    planSnapshot: presentSnapshot(purchase.planSnapshot),
    status: purchase.status,
    statusLabel: label(purchase.status),
    provider: purchase.provider,
    method,
    methodLabel: method ? PAYMENT_METHOD_LABELS[method] : null,
    installments: latest?.installments ?? purchase.installments ?? null,
    ...pendingLinks(purchase, latest),
    renewal: purchase.renewal ? presentRenewal(purchase.renewal) : null,
    appliedAt: iso(purchase.appliedAt),
    approvedAt: iso(purchase.approvedAt),
    rejectedAt: iso(purchase.rejectedAt),
    cancelledAt: iso(purchase.cancelledAt),
    refundedAt: iso(purchase.refundedAt),
    rejectionReason: purchase.rejectionReason,
    refundReason: purchase.refundReason,
    notes: purchase.notes,
    billing: purchase.billingSnapshot ? presentBillingDetails(purchase.billingSnapshot) : null,
    receiptAvailable: hasReceipt(purchase.status),
    fiscalNote: purchase.fiscalNote ? presentFiscalNote(purchase.fiscalNote) : null,
    createdAt: purchase.createdAt.toISOString(),
    updatedAt: purchase.updatedAt.toISOString(),
  };
  const transitions = opts.transitions ?? purchase.transitions;
  if (transitions) json.transitions = [...transitions].sort((a, b) => a.at.getTime() - b.at.getTime()).map(presentTransition);
  return json;
}

export function presentPurchaseStatus(purchase: Purchase, latest: Payment | null): PurchaseStatusResponse {
  const links = pendingLinks(purchase, latest);
  return {
    id: purchase.id,
    status: purchase.status,
    statusLabel: label(purchase.status),
    amount: fromCents(purchase.amountCents),
    amountCents: purchase.amountCents,
    currency: purchase.currency,
    planSnapshot: presentSnapshot(purchase.planSnapshot),
    paymentId: latest?.id ?? null,
    appliedAt: iso(purchase.appliedAt),
    method: latest?.method ?? purchase.method ?? null,
    provider: purchase.provider,
    ...links,
  };
}

export function presentPixPayment(payment: Payment, now: Date = new Date()): ApiPixPayment {
  return {
    id: payment.id,
    _id: payment.id,
    purchaseId: payment.purchaseId,
    provider: payment.provider,
    method: payment.method,
    providerPaymentId: payment.providerPaymentId ?? '',
    status: payment.status,
    statusLabel: label(payment.status),
    amount: fromCents(payment.amountCents),
    amountCents: payment.amountCents,
    currency: payment.currency,
    expiresAt: iso(payment.expiresAt),
    isExpired: payment.isExpired(now),
    qrCodeBase64: payment.qrCodeBase64 ?? '',
    pixCopyPaste: payment.qrCode ?? '',
    ticketUrl: payment.ticketUrl,
    approvedAt: iso(payment.approvedAt),
    createdAt: payment.createdAt.toISOString(),
  };
}
