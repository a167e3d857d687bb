/**
 * What every payment provider offers the rest of the server: PIX charges, hosted checkouts
 * (card, boleto), automatic renewals and refunds. Only the provider's own answers about a
 * payment change a purchase's state (see payments/paymentSynchronizer.ts).
 */
import type { Currency, PaymentMethod, PaymentProviderName } from '@aabify/shared';

/** A provider status read for PIX (docs/payments-pix.md "Reading a payment"); anything unexpected is 'unknown'. */
export type ProviderStatus = 'pending' | 'approved' | 'rejected' | 'cancelled' | 'refunded' | 'in_mediation' | 'unknown';

export interface ProviderPayment {
  id: string;
  status: ProviderStatus;
  /** The provider's own words, kept for support. */
  rawStatus: string;
  statusDetail: string | null;
  amountCents: number;
  currency: string;
  externalReference: string | null;
  qrCode: string | null;
  qrCodeBase64: string | null;
  ticketUrl: string | null;
  expiresAt: Date | null;
  approvedAt: Date | null;
  method: PaymentMethod;
  installments: number | null;
  /** A renewal charge: the provider's id of the renewal that made it. */
  renewalId: string | null;
}

/** A one-off payment on the provider's hosted page (Mercado Pago Checkout Pro, Stripe Checkout, the sandbox's). */
export interface CreateCheckoutInput {
  amountCents: number;
  currency: Currency;
  title: string;
  payerEmail: string;
  /** Our purchase id, echoed back on every payment made there. */
  externalReference: string;
  idempotencyKey: string;
  /** Absolute address of our return page; the provider sends the payer back there. */
  returnUrl: string;
  /** Where the payer goes when they give up on the provider's page. */
  cancelUrl: string;
  notificationUrl?: string;
  /** Card installments the operator allows (1 = none). */
  maxInstallments: number;
  /** After this the checkout takes no new payment. */
  expiresAt: Date;
}

export interface ProviderCheckout {
  id: string;
  /** The provider's page to send the payer to. */
  url: string;
}

/** An automatic renewal to authorize on the provider's page (a subscription plan charged every period). */
export interface CreateRenewalInput {
  amountCents: number;
  currency: Currency;
  title: string;
  payerEmail: string;
  /** Our renewal id. */
  externalReference: string;
  /** The purchase the first charge pays. */
  purchaseId: string;
  frequencyMonths: number;
  idempotencyKey: string;
  returnUrl: string;
  cancelUrl: string;
  notificationUrl?: string;
}

export type ProviderRenewalStatus = 'pending' | 'active' | 'cancelled' | 'unknown';

export interface ProviderRenewal {
  id: string;
  status: ProviderRenewalStatus;
  rawStatus: string;
  /** Where the payer authorizes it (while pending). */
  url: string | null;
  externalReference: string | null;
  amountCents: number;
  currency: string;
}

export interface CreatePixInput {
  amountCents: number;
  description: string;
  payerEmail: string;
  /** Our purchase id, echoed back by the provider. */
  externalReference: string;
  expiresAt: Date;
  /** Deterministic per local payment, so our own retries never charge twice. */
  idempotencyKey: string;
  notificationUrl?: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** A PIX charge (BRL); a provider without PIX refuses with 'validation'. */
  createPix(input: CreatePixInput): Promise<ProviderPayment>;
  getPayment(id: string): Promise<ProviderPayment>;
  /** Cancels a pending charge; answers the payment as it is afterwards. */
  cancelPayment(id: string): Promise<ProviderPayment>;
  /** Full refund of an approved payment, whatever its method (a card refund goes back to the card). */
  refundPayment(id: string, idempotencyKey: string): Promise<ProviderPayment>;
  createCheckout(input: CreateCheckoutInput): Promise<ProviderCheckout>;
  /** The payments made so far on a checkout of ours (read back, never taken from a notification). */
  checkoutPayments(checkoutId: string, externalReference: string): Promise<ProviderPayment[]>;
  createRenewal(input: CreateRenewalInput): Promise<ProviderRenewal>;
  getRenewal(id: string): Promise<ProviderRenewal>;
  /** Stops future charges; what was paid stays paid. */
  cancelRenewal(id: string): Promise<ProviderRenewal>;
  /** The charges a renewal made so far (each with renewalId set). */
  renewalCharges(renewalId: string): Promise<ProviderPayment[]>;
  /** One renewal charge by the id a notification names (Mercado Pago's authorized payment, Stripe's invoice); null while nothing was charged yet. */
  renewalCharge(chargeId: string): Promise<ProviderPayment | null>;
}

/** `payments_unavailable`: a configured provider in its error state (gateway.ts), never the provider's own answer. */
export type ProviderErrorKind = 'validation' | 'auth' | 'not_found' | 'unavailable' | 'pix_key_missing' | 'not_configured' | 'conflict' | 'payments_unavailable';

/** A provider failure, classified; routes map the kind to an HTTP answer (payments/providers/errors.ts). */
export class PaymentProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly detail: { httpStatus?: number; providerMessage?: string; causeCodes?: string[] } = {},
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export function isPaymentProviderError(err: unknown): err is PaymentProviderError {
  return err instanceof PaymentProviderError;
}

/** A refused cancel or refund (already paid, closed, …): the payment's current state decides. */
export function isRefusedChange(err: unknown): boolean {
  return err instanceof PaymentProviderError && (err.kind === 'conflict' || err.kind === 'validation');
}
