/**
 * The Mercado Pago provider: a thin typed client of the REST calls we use (docs/payments-pix.md
 * for PIX, docs/payments-card.md for Checkout Pro and recurring payments) over undici, with a
 * per-call X-Idempotency-Key derived from our own ids, a timeout, and a couple of retries on
 * 429/5xx and network failures.
 */
import { request } from 'undici';
import type { PaymentMethod } from '@aabify/shared';
import type { Logger } from '../../logger.js';
import {
  PaymentProviderError,
  type CreateCheckoutInput,
  type CreatePixInput,
  type CreateRenewalInput,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderRenewal,
  type ProviderRenewalStatus,
  type ProviderStatus,
} from './provider.js';
export interface MercadoPagoOptions {
  accessToken: string;
  apiBaseUrl: string;
  logger?: Logger;
  timeoutMs?: number;
  /** Extra attempts after a 429/5xx/network failure. */
  retries?: number;
  /** Called when a call fails for a reason of ours or theirs, not the payer's (auth, unreachable, no PIX key). */
  onFailure?: (err: PaymentProviderError) => void;
}

/** The fields of MP's payment JSON we read. */
interface MpPayment {
  id: number | string;
  status: string;
  status_detail?: string | null;
  transaction_amount?: number;
  currency_id?: string;
  external_reference?: string | null;
  date_of_expiration?: string | null;
  date_approved?: string | null;
  payment_type_id?: string | null;
  payment_method_id?: string | null;
  installments?: number | null;
  transaction_details?: { external_resource_url?: string | null } | null;
  point_of_interaction?: {
    transaction_data?: { qr_code?: string | null; qr_code_base64?: string | null; ticket_url?: string | null };
  };
}

interface MpError {
  message?: string;
  error?: string;
  status?: number;
  cause?: Array<{ code?: number | string; description?: string }> | { code?: number | string; description?: string };
}

const STATUS: Record<string, ProviderStatus> = {
  pending: 'pending',
  authorized: 'pending',
  in_process: 'pending',
  approved: 'approved',
  in_mediation: 'in_mediation',
  rejected: 'rejected',
  cancelled: 'cancelled',
  refunded: 'refunded',
  charged_back: 'refunded',
};

/** MP's documented format: yyyy-MM-dd'T'HH:mm:ss.SSS-03:00 (Brasília has no daylight saving since 2019). */
export function mpDate(date: Date): string {
  return new Date(date.getTime() - 3 * 3600_000).toISOString().replace('Z', '-03:00');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isMpPayment(v: unknown): v is MpPayment {
  return isObject(v) && (typeof v.id === 'number' || typeof v.id === 'string') && typeof v.status === 'string';
}

/** A checkout preference (Checkout Pro): its id and the page to send the payer to. */
interface MpPreference {
  id: string;
  init_point: string;
}
function isMpPreference(v: unknown): v is MpPreference {
  return isObject(v) && typeof v.id === 'string' && typeof v.init_point === 'string';
}

/** A preapproval (recurring payment authorization). */
interface MpPreapproval {
  id: string;
  status: string;
  init_point?: string | null;
  external_reference?: string | null;
  auto_recurring?: { transaction_amount?: number; currency_id?: string } | null;
}
function isMpPreapproval(v: unknown): v is MpPreapproval {
  return isObject(v) && typeof v.id === 'string' && typeof v.status === 'string';
}

/** An authorized payment: one charge of a preapproval, with the payment it made (if any yet). */
interface MpAuthorizedPayment {
  id: number | string;
  preapproval_id: string;
  status?: string;
  transaction_amount?: number;
  currency_id?: string;
  external_reference?: string | null;
  date_created?: string | null;
  payment?: { id?: number | string | null; status?: string | null; status_detail?: string | null } | null;
}
function isMpAuthorizedPayment(v: unknown): v is MpAuthorizedPayment {
  return isObject(v) && (typeof v.id === 'number' || typeof v.id === 'string') && typeof v.preapproval_id === 'string';
}

function resultsOf<T>(v: unknown, guard: (x: unknown) => x is T): T[] {
  const results = isObject(v) && Array.isArray(v.results) ? (v.results as unknown[]) : [];
  return results.filter(guard);
}

/** payment_type_id → our method (docs/payments-card.md "Reading a payment"). */
function methodOf(p: Pick<MpPayment, 'payment_type_id' | 'payment_method_id'>): PaymentMethod {
  if (p.payment_method_id === 'pix' || p.payment_type_id === 'bank_transfer') return 'pix';
  if (p.payment_type_id === 'credit_card' || p.payment_type_id === 'debit_card' || p.payment_type_id === 'prepaid_card') return 'card';
  if (p.payment_type_id === 'ticket') return 'boleto';
  return 'other';
}

const RENEWAL_STATUS: Record<string, ProviderRenewalStatus> = { pending: 'pending', authorized: 'active', paused: 'active', cancelled: 'cancelled' };

function toProviderRenewal(p: MpPreapproval): ProviderRenewal {
  return {
    id: p.id,
    status: RENEWAL_STATUS[p.status] ?? 'unknown',
    rawStatus: p.status,
    url: p.init_point ?? null,
    externalReference: p.external_reference ?? null,
    amountCents: Math.round((p.auto_recurring?.transaction_amount ?? 0) * 100),
    currency: p.auto_recurring?.currency_id ?? 'BRL',
  };
}

/** A charge of a preapproval as a payment; null while it has made no payment yet (scheduled). */
function authorizedToProviderPayment(a: MpAuthorizedPayment, logger?: Logger): ProviderPayment | null {
  const paymentId = a.payment?.id;
  if (paymentId === undefined || paymentId === null || !a.payment?.status) return null;
  const status = STATUS[a.payment.status] ?? 'unknown';
  if (status === 'unknown') logger?.error({ mpStatus: a.payment.status, authorizedPaymentId: a.id }, 'mercadopago: unknown payment status of a renewal charge');
  return {
    id: String(paymentId),
    status,
    rawStatus: a.payment.status,
    statusDetail: a.payment.status_detail ?? null,
    amountCents: Math.round((a.transaction_amount ?? 0) * 100),
    currency: a.currency_id ?? 'BRL',
    externalReference: a.external_reference ?? null,
    qrCode: null,
    qrCodeBase64: null,
    ticketUrl: null,
    expiresAt: null,
    approvedAt: status === 'approved' && a.date_created ? new Date(a.date_created) : null,
    method: 'card',
    installments: 1,
    renewalId: a.preapproval_id,
  };
}

function causeCodes(body: MpError): string[] {
  const causes = Array.isArray(body.cause) ? body.cause : body.cause ? [body.cause] : [];
  return causes.map((c) => String(c.code ?? '')).filter(Boolean);
}

function toProviderPayment(p: MpPayment, logger?: Logger): ProviderPayment {
  const status = STATUS[p.status] ?? 'unknown';
  if (status === 'unknown') logger?.error({ mpStatus: p.status, paymentId: p.id }, 'mercadopago: unknown payment status');
  const data = p.point_of_interaction?.transaction_data;
  return {
    id: String(p.id),
    status,
    rawStatus: p.status,
    statusDetail: p.status_detail ?? null,
    amountCents: Math.round((p.transaction_amount ?? 0) * 100),
    currency: p.currency_id ?? 'BRL',
    externalReference: p.external_reference ?? null,
    qrCode: data?.qr_code ?? null,
    qrCodeBase64: data?.qr_code_base64 ?? null,
    ticketUrl: data?.ticket_url ?? null,
    expiresAt: p.date_of_expiration ? new Date(p.date_of_expiration) : null,
    approvedAt: p.date_approved ? new Date(p.date_approved) : null,
    method: methodOf(p),
    installments: typeof p.installments === 'number' && p.installments > 0 ? p.installments : null,
    renewalId: null,
  };
}

/** The boleto's page, for a boleto payment (a PIX's page is in point_of_interaction). */
function withBoletoUrl(payment: ProviderPayment, p: MpPayment): ProviderPayment {
  if (payment.method !== 'boleto') return payment;
  return { ...payment, ticketUrl: p.transaction_details?.external_resource_url ?? payment.ticketUrl };
}

function classify(status: number, body: MpError): PaymentProviderError {
  const providerMessage = body.message ?? body.error ?? `HTTP ${status}`;
  const codes = causeCodes(body);
  const detail = { httpStatus: status, providerMessage, causeCodes: codes };
  if (codes.includes('13253') || /without key enabled for QR/i.test(providerMessage)) {
    return new PaymentProviderError('pix_key_missing', 'Mercado Pago account has no PIX key for QR codes', detail);
  }
  if (status === 401 || status === 403) return new PaymentProviderError('auth', 'Mercado Pago refused the access token', detail);
  if (status === 404) return new PaymentProviderError('not_found', 'Mercado Pago payment not found', detail);
  if (status === 409) return new PaymentProviderError('conflict', providerMessage, detail);
  if (status >= 400 && status < 500 && status !== 429) return new PaymentProviderError('validation', providerMessage, detail);
  return new PaymentProviderError('unavailable', `Mercado Pago answered ${status}`, detail);
}

/**
 * Mercado Pago refuses a date_of_expiration under 30 minutes after it receives the request;
 * our charges live exactly 30 minutes, so MP's side gets a margin. Our expiry job cancels
 * the charge at our own expiry anyway.
 */
export const MP_EXPIRY_MARGIN_MS = 2 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createMercadoPagoProvider(opts: MercadoPagoOptions): PaymentProvider {
  const base = opts.apiBaseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const retries = opts.retries ?? 2;
  const logger = opts.logger;

  async function call<T>(guard: (v: unknown) => v is T, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.accessToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['x-idempotency-key'] = idempotencyKey;
    let lastError: PaymentProviderError | undefined;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(200 * 2 ** (attempt - 1));
      let status: number;
      let parsed: unknown;
      try {
        const res = await request(`${base}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        status = res.statusCode;
        const text = await res.body.text();
        try {
          parsed = text ? (JSON.parse(text) as unknown) : {};
        } catch {
          parsed = { message: text.slice(0, 200) };
        }
      } catch (err) {
        lastError = new PaymentProviderError('unavailable', `Mercado Pago unreachable: ${(err as Error).message}`);
        logger?.warn({ method, path, attempt, err: (err as Error).message }, 'mercadopago: request failed');
        continue;
      }
      if (status >= 200 && status < 300) {
        if (!guard(parsed)) throw new PaymentProviderError('unavailable', 'Mercado Pago answered an unexpected body', { httpStatus: status });
        return parsed;
      }
      lastError = classify(status, isObject(parsed) ? (parsed as MpError) : {});
      logger?.warn({ method, path, attempt, status, kind: lastError.kind, providerMessage: lastError.detail.providerMessage }, 'mercadopago: error answer');
      if (lastError.kind !== 'unavailable') break;
    }
    const failure = lastError ?? new PaymentProviderError('unavailable', 'Mercado Pago request failed');
    if (failure.kind === 'auth' || failure.kind === 'unavailable' || failure.kind === 'pix_key_missing') opts.onFailure?.(failure);
    throw failure;
  }

  const payment = (p: MpPayment) => withBoletoUrl(toProviderPayment(p, logger), p);
  const idPath = (id: string) => {
    if (!/^\d{1,20}$/.test(id)) throw new PaymentProviderError('not_found', `not a Mercado Pago payment id: ${id}`);
    return `/v1/payments/${id}`;
  };
  // Preapproval ids are alphanumeric (e.g. 2c938084726fca480172750000000000).
  const preapprovalPath = (id: string) => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new PaymentProviderError('not_found', `not a Mercado Pago preapproval id: ${id}`);
    return `/preapproval/${id}`;
  };
  const isObjectBody = (v: unknown): v is Record<string, unknown> => isObject(v);
  const onlyBrl = (currency: string) => {
    if (currency !== 'BRL') throw new PaymentProviderError('validation', `Mercado Pago charges only BRL, not ${currency}`);
  };

  return {
    name: 'mercadopago',
    async createPix(input: CreatePixInput) {
      const body: Record<string, unknown> = {
        transaction_amount: input.amountCents / 100,
        description: input.description,
        payment_method_id: 'pix',
        payer: { email: input.payerEmail },
        date_of_expiration: mpDate(new Date(input.expiresAt.getTime() + MP_EXPIRY_MARGIN_MS)),
        external_reference: input.externalReference,
      };
      if (input.notificationUrl) body.notification_url = input.notificationUrl;
      return payment(await call(isMpPayment, 'POST', '/v1/payments', body, input.idempotencyKey));
    },
    async getPayment(id) {
      return payment(await call(isMpPayment, 'GET', idPath(id)));
    },
    async cancelPayment(id) {
      return payment(await call(isMpPayment, 'PUT', idPath(id), { status: 'cancelled' }, `cancel-${id}`));
    },
    async refundPayment(id, idempotencyKey) {
      // The refund answer is the refund, not the payment: read the payment back.
      const path = idPath(id);
      await call(isObjectBody, 'POST', `${path}/refunds`, {}, idempotencyKey);
      return payment(await call(isMpPayment, 'GET', path));
    },
    async createCheckout(input: CreateCheckoutInput) {
      onlyBrl(input.currency);
      const body: Record<string, unknown> = {
        items: [{ id: input.externalReference, title: input.title, quantity: 1, currency_id: 'BRL', unit_price: input.amountCents / 100 }],
        payer: { email: input.payerEmail },
        external_reference: input.externalReference,
        back_urls: { success: input.returnUrl, pending: input.returnUrl, failure: input.returnUrl },
        auto_return: 'all',
        payment_methods: { installments: input.maxInstallments, excluded_payment_types: [] },
        statement_descriptor: 'AABIFY',
        expires: true,
        expiration_date_to: mpDate(input.expiresAt),
      };
      if (input.notificationUrl) body.notification_url = input.notificationUrl;
      const preference = await call(isMpPreference, 'POST', '/checkout/preferences', body, input.idempotencyKey);
      return { id: preference.id, url: preference.init_point };
    },
    async checkoutPayments(_checkoutId, externalReference) {
      const query = new URLSearchParams({ external_reference: externalReference, sort: 'date_created', criteria: 'desc' });
      const found = await call(isObjectBody, 'GET', `/v1/payments/search?${query.toString()}`);
      return resultsOf(found, isMpPayment).map(payment);
    },
    async createRenewal(input: CreateRenewalInput) {
      onlyBrl(input.currency);
      const body: Record<string, unknown> = {
        reason: input.title,
        external_reference: input.externalReference,
        payer_email: input.payerEmail,
        auto_recurring: { frequency: input.frequencyMonths, frequency_type: 'months', transaction_amount: input.amountCents / 100, currency_id: 'BRL' },
        back_url: input.returnUrl,
        status: 'pending',
      };
      if (input.notificationUrl) body.notification_url = input.notificationUrl;
      return toProviderRenewal(await call(isMpPreapproval, 'POST', '/preapproval', body, input.idempotencyKey));
    },
    async getRenewal(id) {
      return toProviderRenewal(await call(isMpPreapproval, 'GET', preapprovalPath(id)));
    },
    async cancelRenewal(id) {
      return toProviderRenewal(await call(isMpPreapproval, 'PUT', preapprovalPath(id), { status: 'cancelled' }, `cancel-renewal-${id}`));
    },
    async renewalCharges(renewalId) {
      preapprovalPath(renewalId);
      const query = new URLSearchParams({ preapproval_id: renewalId });
      const found = await call(isObjectBody, 'GET', `/authorized_payments/search?${query.toString()}`);
      return resultsOf(found, isMpAuthorizedPayment)
        .map((a) => authorizedToProviderPayment(a, logger))
        .filter((p): p is ProviderPayment => p !== null);
    },
    async renewalCharge(chargeId) {
      if (!/^\d{1,20}$/.test(chargeId)) throw new PaymentProviderError('not_found', `not a Mercado Pago authorized payment id: ${chargeId}`);
      return authorizedToProviderPayment(await call(isMpAuthorizedPayment, 'GET', `/authorized_payments/${chargeId}`), logger);
    },
  };
}
