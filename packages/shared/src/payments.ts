/**
 * Purchases and PIX payments as the API's clients see them, with the polling constants
 * of the payment page and the status labels of the admin screens.
 */
import type { Currency } from './money.js';
import type { PlanType } from './plans.js';
import type { PaymentMethod } from './paymentMethods.js';
import type { ApiBillingDetails } from './billing.js';
import type { ApiFiscalNote } from './fiscal.js';

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

export const PAYMENT_PROVIDERS = ['sandbox', 'mercadopago', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const PAYMENT_PROVIDER_LABELS: Record<PaymentProviderName | 'manual', string> = {
  sandbox: 'Sandbox',
  mercadopago: 'Mercado Pago',
  stripe: 'Stripe',
  manual: 'Manual',
};

export { PAYMENT_METHODS, PAYMENT_METHOD_LABELS, type PaymentMethod } from './paymentMethods.js';

/** The state of an automatic renewal: waiting for the payer's authorization, charging every period, or stopped. */
export const RENEWAL_STATUSES = ['pending', 'active', 'cancelled'] as const;
export type RenewalStatus = (typeof RENEWAL_STATUSES)[number];
export const RENEWAL_STATUS_LABELS: Record<RenewalStatus, string> = {
  pending: 'Aguardando autorização',
  active: 'Renovação automática ativa',
  cancelled: 'Renovação cancelada',
};

/** An automatic renewal of a subscription plan, charged by card every period at its provider. */
export interface ApiRenewal {
  id: string;
  status: RenewalStatus;
  statusLabel: string;
  provider: PaymentProviderName;
  planId: string | null;
  planName: string;
  amountCents: number;
  currency: Currency;
  formattedAmount: string;
  /** Months between charges (the plan's duration). */
  frequencyMonths: number;
  /** Where the payer authorizes it, while pending. */
  checkoutUrl: string | null;
  lastChargedAt: string | null;
  lastFailureAt: string | null;
  lastFailureReason: string | null;
  cancelledAt: string | null;
  createdAt: string;
}

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
  /** How it was paid; null while a hosted checkout has no payment yet (or for a manual grant). */
  method: PaymentMethod | null;
  methodLabel: string | null;
  /** Card installments, when the provider tells. */
  installments: number | null;
  /** The hosted checkout to go back to while the purchase is pending with no payment made there yet. */
  checkoutUrl: string | null;
  /** The boleto to pay, while its payment is pending. */
  boletoUrl: string | null;
  /** The automatic renewal this purchase belongs to (its first period or a renewal charge). */
  renewal: ApiRenewal | null;
  appliedAt: string | null;
  approvedAt: string | null;
  rejectedAt: string | null;
  cancelledAt: string | null;
  refundedAt: string | null;
  rejectionReason: string | null;
  refundReason: string | null;
  notes: string | null;
  /** The buyer's billing details as they were at the purchase (null for purchases made before they were asked). */
  billing: ApiBillingDetails | null;
  /** Approved, or refunded after it: GET /payments/purchase/{id}/receipt answers its PDF. */
  receiptAvailable: boolean;
  /** Its nota fiscal de serviço, once one is asked for. */
  fiscalNote: ApiFiscalNote | null;
  createdAt: string;
  updatedAt: string;
  transitions?: PurchaseTransitionJson[];
}

export interface ApiPixPayment {
  id: string;
  _id: string;
  purchaseId: string;
  provider: PaymentProviderName;
  method: PaymentMethod;
  /** The provider's own id (Mercado Pago payment id; sandbox charge id). */
  providerPaymentId: string;
  status: PaymentStatus;
  statusLabel: string;
  amount: number;
  amountCents: number;
  currency: Currency;
  /** PIX charges expire; a card or boleto payment has its provider's own deadline (null). */
  expiresAt: string | null;
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
  expiresAt: string | null;
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
  method: PaymentMethod | null;
  provider: PaymentProviderName | 'manual';
  boletoUrl: string | null;
  checkoutUrl: string | null;
}

/** POST /payments/checkout/{planId}: a hosted checkout (card, boleto) or, with renew, an automatic renewal to authorize. */
export interface CheckoutResponse {
  success: true;
  message: string;
  /** Where to send the buyer: the provider's page (or the sandbox's own). */
  checkoutUrl: string;
  purchase: ApiPurchase;
  renewal: ApiRenewal | null;
}

/** What one currency can be paid with now, and through which provider; null routes mean the currency cannot be charged. */
export interface CurrencyPaymentRoute {
  provider: PaymentProviderName;
  pix: boolean;
  card: boolean;
  renewal: boolean;
  /** Card installments the operator allows (1 = no installments). */
  maxInstallments: number;
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
  /** Per currency, the provider that charges it (null: no configured provider can, and its plans cannot be activated). */
  routes: Record<Currency, CurrencyPaymentRoute | null>;
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
  /** Per currency, how a plan in it can be bought (null: it cannot, and such plans are not offered). */
  routes: Record<Currency, CurrencyPaymentRoute | null>;
}

/** A sandbox hosted checkout as its page (/sandbox/checkout/{id}) shows it. */
export interface ApiSandboxCheckout {
  id: string;
  /** A one-off payment, or an automatic renewal to authorize. */
  kind: 'payment' | 'renewal';
  status: 'open' | 'completed' | 'authorized' | 'cancelled';
  amountCents: number;
  currency: Currency;
  formattedAmount: string;
  description: string;
  /** Card installments offered (1 = none). */
  maxInstallments: number;
  /** Renewals: months between charges. */
  frequencyMonths: number | null;
  /** Boleto only for BRL (as Mercado Pago offers it); USD and EUR by card (as Stripe does). */
  methods: Array<'card' | 'boleto'>;
  /** Our return page (/payment-status?purchase_id=…). */
  returnUrl: string;
}

/** The answer of paying or authorizing on a sandbox checkout: where the payer goes next. */
export interface SandboxCheckoutResult {
  success: true;
  returnUrl: string;
  payment: ApiPixPayment;
}
