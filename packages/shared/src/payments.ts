/**
 * Purchases and PIX payments as the API's clients see them, with the polling constants
 * of the payment page and the status labels of the admin screens.
 */
import type { Currency } from './money.js';
import type { PlanType } from './plans.js';

export const PURCHASE_STATUSES = ['pending', 'approved', 'rejected', 'cancelled', 'refunded'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
export const PAYMENT_STATUSES = PURCHASE_STATUSES;
export type PaymentStatus = PurchaseStatus;

export const PAYMENT_STATUS_LABELS: Record<PurchaseStatus, string> = {
  pending: 'Pendente',
  approved: 'Aprovado',
  rejected: 'Rejeitado',
  cancelled: 'Cancelado',
  refunded: 'Reembolsado',
};

export const PAYMENT_PROVIDERS = ['sandbox', 'mercadopago'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** A PIX charge lives 30 minutes. */
export const PIX_EXPIRATION_MINUTES = 30;

/** Client polling of a PIX charge. */
export const PIX_POLLING = {
  initialIntervalMs: 2000,
  maxAttempts: 15,
  slowAfterAttempt: 5,
  slowFactor: 1.2,
  slowMaxMs: 3000,
  slowerAfterAttempt: 10,
  slowerFactor: 1.5,
  slowerMaxMs: 5000,
  errorFactor: 1.5,
  errorMaxMs: 8000,
} as const;

export interface PlanSnapshot {
  name: string;
  type: PlanType;
  /** Credit plans. */
  credits: number | null;
  /** Subscription plans, months. */
  duration: number | null;
  priceCents: number;
  currency: Currency;
}

export interface PurchaseTransitionJson {
  from: PurchaseStatus | null;
  to: PurchaseStatus;
  reason: string;
  at: string;
}

export interface ApiPurchase {
  id: string;
  _id: string;
  userId: string;
  planId: string | null;
  paymentId: string | null;
  amount: number;
  amountCents: number;
  currency: Currency;
  formattedAmount: string;
  planSnapshot: PlanSnapshot;
  status: PurchaseStatus;
  statusLabel: string;
  provider: PaymentProviderName | 'manual';
  appliedAt: string | null;
  approvedAt: string | null;
  rejectedAt: string | null;
  cancelledAt: string | null;
  refundedAt: string | null;
  rejectionReason: string | null;
  refundReason: string | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  transitions?: PurchaseTransitionJson[];
}

export interface ApiPixPayment {
  id: string;
  _id: string;
  purchaseId: string;
  provider: PaymentProviderName;
  /** The provider's own id (Mercado Pago payment id; sandbox charge id). */
  providerPaymentId: string;
  status: PaymentStatus;
  statusLabel: string;
  amount: number;
  amountCents: number;
  currency: Currency;
  expiresAt: string;
  /** Pending with an elapsed expiry. */
  isExpired: boolean;
  /** PNG, base64 without the data: prefix. */
  qrCodeBase64: string;
  /** The BR Code "copia e cola" text. */
  pixCopyPaste: string;
  ticketUrl: string | null;
  approvedAt: string | null;
  createdAt: string;
}

export interface CreatePixResponse {
  success: true;
  message: string;
  /** True when an unexpired pending charge for the same plan was returned instead of a new one. */
  reused: boolean;
  payment: ApiPixPayment;
  purchase: ApiPurchase;
}

export interface PixStatusResponse {
  success: true;
  payment: ApiPixPayment;
  purchase: { id: string; status: PurchaseStatus };
  message: string;
}

export interface PixPollingStatusResponse {
  success: true;
  paymentId: string;
  status: PaymentStatus;
  isExpired: boolean;
  expiresAt: string;
  shouldContinuePolling: boolean;
  /** Milliseconds until the next poll. */
  recommendedInterval: number;
  message: string;
}

export interface PurchaseStatusResponse {
  id: string;
  status: PurchaseStatus;
  statusLabel: string;
  amount: number;
  amountCents: number;
  currency: Currency;
  planSnapshot: PlanSnapshot;
  paymentId: string | null;
  appliedAt: string | null;
}

/**
 * Why a configured payment provider cannot be used. A configured provider never falls back
 * to the sandbox: payments stop until an admin fixes it (docs/payments.md "Provider state").
 */
export const PAYMENTS_UNAVAILABLE_REASONS = ['ACCESS_TOKEN_UNREADABLE', 'ACCESS_TOKEN_MISSING', 'WEBHOOK_SECRET_UNREADABLE', 'SANDBOX_CONFLICT'] as const;
export type PaymentsUnavailableReason = (typeof PAYMENTS_UNAVAILABLE_REASONS)[number];

/** What the admin screens show of the payment provider (never a secret). */
export interface PaymentsStatus {
  /** The provider that serves (or would serve, once fixed) new charges. */
  provider: PaymentProviderName;
  /** 'Sandbox: pagamentos simulados, nenhum dinheiro real' or 'Mercado Pago'. */
  label: string;
  sandbox: boolean;
  available: boolean;
  reason: PaymentsUnavailableReason | null;
  /** pt-BR: what is wrong and what to do, for the admin banner; null when available. */
  message: string | null;
}

export interface PaymentConfigResponse {
  provider: PaymentProviderName;
  sandbox: boolean;
  /** False when the configured provider cannot be used: purchases are refused (503 PAYMENTS_UNAVAILABLE). */
  available: boolean;
  /** pt-BR text for buyers when unavailable (the reason itself is shown to admins only). */
  unavailableMessage: string | null;
  /** Mercado Pago public key (safe for browsers); null in the sandbox. Never a secret. */
  publicKey: string | null;
  currency: 'BRL';
  pixExpirationMinutes: number;
  /** Whether POST /payments/simulate-approval works (sandbox only). */
  canSimulateApproval: boolean;
  polling: typeof PIX_POLLING;
}
