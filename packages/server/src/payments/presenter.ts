/** Purchases and PIX payments as clients see them: no provider internals beyond what support needs. */
import {
  PAYMENT_MESSAGES,
  PAYMENT_STATUS_LABELS,
  formatMoney,
  fromCents,
  type ApiPixPayment,
  type ApiPurchase,
  type PlanSnapshot,
  type PurchaseStatus,
  type PurchaseStatusResponse,
} from '@aabify/shared';
import type { Payment, Purchase, PurchaseTransition } from '../models/index.js';

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

export function presentPurchase(purchase: Purchase, opts: { paymentId?: string | null; transitions?: PurchaseTransition[] } = {}): ApiPurchase {
  const paymentId = opts.paymentId ?? purchase.payments?.[0]?.id ?? null;
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
    appliedAt: iso(purchase.appliedAt),
    approvedAt: iso(purchase.approvedAt),
    rejectedAt: iso(purchase.rejectedAt),
    cancelledAt: iso(purchase.cancelledAt),
    refundedAt: iso(purchase.refundedAt),
    rejectionReason: purchase.rejectionReason,
    refundReason: purchase.refundReason,
    notes: purchase.notes,
    createdAt: purchase.createdAt.toISOString(),
    updatedAt: purchase.updatedAt.toISOString(),
  };
  const transitions = opts.transitions ?? purchase.transitions;
  if (transitions) json.transitions = [...transitions].sort((a, b) => a.at.getTime() - b.at.getTime()).map(presentTransition);
  return json;
}

export function presentPurchaseStatus(purchase: Purchase, paymentId: string | null): PurchaseStatusResponse {
  return {
    id: purchase.id,
    status: purchase.status,
    statusLabel: label(purchase.status),
    amount: fromCents(purchase.amountCents),
    amountCents: purchase.amountCents,
    currency: purchase.currency,
    planSnapshot: presentSnapshot(purchase.planSnapshot),
    paymentId,
    appliedAt: iso(purchase.appliedAt),
  };
}

export function presentPixPayment(payment: Payment, now: Date = new Date()): ApiPixPayment {
  return {
    id: payment.id,
    _id: payment.id,
    purchaseId: payment.purchaseId,
    provider: payment.provider,
    providerPaymentId: payment.providerPaymentId ?? '',
    status: payment.status,
    statusLabel: label(payment.status),
    amount: fromCents(payment.amountCents),
    amountCents: payment.amountCents,
    currency: payment.currency,
    expiresAt: payment.expiresAt.toISOString(),
    isExpired: payment.isExpired(now),
    qrCodeBase64: payment.qrCodeBase64 ?? '',
    pixCopyPaste: payment.qrCode ?? '',
    ticketUrl: payment.ticketUrl,
    approvedAt: iso(payment.approvedAt),
    createdAt: payment.createdAt.toISOString(),
  };
}
