/**
 * What every payment provider offers the rest of the server. Only the provider's answer to
 * getPayment changes a purchase's state (see payments/paymentSynchronizer.ts).
 */
import type { PaymentProviderName } from '@aabify/shared';

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
  createPix(input: CreatePixInput): Promise<ProviderPayment>;
  getPayment(id: string): Promise<ProviderPayment>;
  /** Cancels a pending charge; answers the payment as it is afterwards. */
  cancelPayment(id: string): Promise<ProviderPayment>;
  /** Full refund of an approved payment. */
  refundPayment(id: string, idempotencyKey: string): Promise<ProviderPayment>;
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
