/**
 * The Mercado Pago provider: a thin typed client of the four REST calls a PIX integration
 * needs (docs/payments-pix.md) over undici, with a per-call X-Idempotency-Key derived from
 * our own payment id, a timeout, and a couple of retries on 429/5xx and network failures.
 */
import { request } from 'undici';
import type { Logger } from '../../logger.js';
import { PaymentProviderError, type CreatePixInput, type PaymentProvider, type ProviderPayment, type ProviderStatus } from './provider.js';

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
  };
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

  async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, idempotencyKey?: string): Promise<MpPayment> {
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
        if (!isMpPayment(parsed)) throw new PaymentProviderError('unavailable', 'Mercado Pago answered an unexpected body', { httpStatus: status });
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

  const idPath = (id: string) => {
    if (!/^\d{1,20}$/.test(id)) throw new PaymentProviderError('not_found', `not a Mercado Pago payment id: ${id}`);
    return `/v1/payments/${id}`;
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
      return toProviderPayment(await call('POST', '/v1/payments', body, input.idempotencyKey), logger);
    },
    async getPayment(id) {
      return toProviderPayment(await call('GET', idPath(id)), logger);
    },
    async cancelPayment(id) {
      return toProviderPayment(await call('PUT', idPath(id), { status: 'cancelled' }, `cancel-${id}`), logger);
    },
    async refundPayment(id, idempotencyKey) {
      // The refund answer is the refund, not the payment: read the payment back.
      const path = idPath(id);
      await call('POST', `${path}/refunds`, {}, idempotencyKey);
      return toProviderPayment(await call('GET', path), logger);
    },
  };
}
