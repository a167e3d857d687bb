/**
 * A local stand-in for Mercado Pago's payments API, speaking the requests and answers of
 * docs/payments-pix.md and docs/payments-card.md: POST /v1/payments (PIX, X-Idempotency-Key
 * required, date_of_expiration format and 30-minute minimum checked), GET /v1/payments/{id},
 * GET /v1/payments/search, PUT /v1/payments/{id} (cancel), POST /v1/payments/{id}/refunds, and
 * (mercadoPagoCheckoutStandIn.ts) Checkout Pro preferences, preapprovals and authorized
 * payments. It keeps its own payments, records every request, can be told to fail, and sends
 * signed webhooks (x-signature, x-request-id) to the notification_url.
 *
 *   const mp = await MercadoPagoStandIn.start({ accessToken: 'TEST-1', webhookSecret: 's3cr3t' });
 *   mp.approve(id); await mp.notify(id, { to: server.url });
 *   const paid = mp.checkout.payPreference(prefId, { type: 'credit_card', status: 'approved', installments: 3 });
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { MpCheckoutBooks, type MpStatus, type PaymentSeed } from './mercadoPagoCheckoutStandIn.js';

export type { MpStatus } from './mercadoPagoCheckoutStandIn.js';

export interface MpPaymentRecord {
  id: number;
  status: MpStatus;
  status_detail: string;
  transaction_amount: number;
  currency_id: 'BRL';
  description: string;
  payment_method_id: string;
  payment_type_id: string;
  installments: number;
  payer: { email: string };
  external_reference: string | null;
  notification_url: string | null;
  date_created: string;
  date_approved: string | null;
  date_of_expiration: string | null;
  transaction_amount_refunded: number;
  transaction_details?: { external_resource_url: string | null };
  point_of_interaction?: {
    type: 'PIX';
    transaction_data: { qr_code: string; qr_code_base64: string; ticket_url: string };
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

interface Failure {
  status: number;
  body: unknown;
  method?: string;
  times: number;
}

export interface NotifyOptions {
  /** Base URL the notification goes to instead of notification_url's origin (our test server). */
  to: string;
  action?: string;
  /** Signature with another secret (a forgery). */
  secret?: string;
  /** Unix seconds written in the signature (default now). */
  ts?: number;
  requestId?: string;
  /** Sign one id but send another in the query. */
  signedId?: string;
  /** Send without the x-signature header. */
  unsigned?: boolean;
  /** Exact x-signature header to send. */
  rawSignature?: string;
}

// ---- an independent BR Code builder (what MP's codes look like: 62/05 = mpqrinter<id>) ----
function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}
function crc16(text: string): string {
  let crc = 0xffff;
  for (const b of Buffer.from(text, 'utf8')) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
function mpBrCode(id: number, amount: number): string {
  const body =
    field('00', '01') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', 'd2a9f5e4-1b7c-4c3e-9a51-6f0e2b8c7d11')) +
    field('52', '0000') +
    field('53', '986') +
    field('54', amount.toFixed(2)) +
    field('58', 'BR') +
    field('59', 'LOJA TESTE') +
    field('60', 'Sao Paulo') +
    field('62', field('05', `mpqrinter${id}`)) +
    '6304';
  return body + crc16(body);
}

const EXPIRY_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

export class MercadoPagoStandIn {
  readonly payments = new Map<number, MpPaymentRecord>();
  readonly requests: RecordedRequest[] = [];
  /** Simulates an account without a PIX key (error 13253). */
  pixKeyMissing = false;
  private readonly byIdempotencyKey = new Map<string, number>();
  private readonly failures: Failure[] = [];
  private nextId = 1_300_000_001;
  private server!: Server;
  url = '';
  /** Checkout Pro preferences, preapprovals and their authorized payments. */
  readonly checkout: MpCheckoutBooks;

  private constructor(readonly accessToken: string, readonly webhookSecret: string) {
    this.checkout = new MpCheckoutBooks({ createPayment: (seed) => this.createFromSeed(seed), baseUrl: () => this.url });
  }

  /** A payment made by a payer on a checkout page or by a preapproval (not through POST /v1/payments). */
  private createFromSeed(seed: PaymentSeed): MpPaymentRecord {
    const id = this.nextId++;
    const now = new Date();
    const record: MpPaymentRecord = {
      id,
      status: seed.status,
      status_detail: seed.statusDetail,
      transaction_amount: seed.amount,
      currency_id: 'BRL',
      description: seed.description,
      payment_method_id: seed.paymentMethodId,
      payment_type_id: seed.paymentTypeId,
      installments: seed.installments,
      payer: { email: seed.email },
      external_reference: seed.externalReference,
      notification_url: seed.notificationUrl,
      date_created: now.toISOString(),
      date_approved: seed.status === 'approved' ? now.toISOString() : null,
      date_of_expiration: seed.paymentTypeId === 'ticket' ? new Date(now.getTime() + 3 * 86400_000).toISOString() : null,
      transaction_amount_refunded: 0,
      transaction_details: { external_resource_url: seed.paymentTypeId === 'ticket' ? `${this.url}/boletos/${id}` : null },
    };
    this.payments.set(id, record);
    return record;
  }

  static async start(opts: { accessToken: string; webhookSecret: string }): Promise<MercadoPagoStandIn> {
    const mp = new MercadoPagoStandIn(opts.accessToken, opts.webhookSecret);
    mp.server = createServer((req, res) => {
      mp.handle(req, res).catch((err: unknown) => mp.send(res, 500, { message: String(err), error: 'internal_error', status: 500, cause: [] }));
    });
    await new Promise<void>((resolve) => mp.server.listen(0, '127.0.0.1', resolve));
    mp.url = `http://127.0.0.1:${(mp.server.address() as AddressInfo).port}`;
    return mp;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** The next `times` requests (of `method`, when given) answer this error. */
  failNext(status: number, body: unknown, opts: { times?: number; method?: string } = {}): void {
    this.failures.push({ status, body, method: opts.method, times: opts.times ?? 1 });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  setStatus(id: number | string, status: MpStatus, detail: string): MpPaymentRecord {
    const p = this.payment(id);
    p.status = status;
    p.status_detail = detail;
    if (status === 'approved' && !p.date_approved) p.date_approved = new Date().toISOString();
    if (status === 'refunded') p.transaction_amount_refunded = p.transaction_amount;
    return p;
  }
  approve(id: number | string) {
    return this.setStatus(id, 'approved', 'accredited');
  }
  reject(id: number | string) {
    return this.setStatus(id, 'rejected', 'bank_error');
  }
  expire(id: number | string) {
    return this.setStatus(id, 'cancelled', 'expired');
  }

  payment(id: number | string): MpPaymentRecord {
    const p = this.payments.get(Number(id));
    if (!p) throw new Error(`stand-in has no payment ${id}`);
    return p;
  }

  /** Sends the webhook Mercado Pago sends for a payment; answers our server's status and body. */
  async notify(id: number | string, opts: NotifyOptions): Promise<{ status: number; body: unknown }> {
    const p = this.payment(id);
    return this.notifyTopic('payment', String(p.id), p.notification_url, { ...opts, action: opts.action ?? 'payment.updated' });
  }

  /** The webhook of a preapproval (subscription_preapproval) or of one of its charges (subscription_authorized_payment). */
  async notifySubscription(topic: 'subscription_preapproval' | 'subscription_authorized_payment', id: string | number, opts: NotifyOptions): Promise<{ status: number; body: unknown }> {
    return this.notifyTopic(topic, String(id), this.checkout.notificationUrlOf(topic, String(id)), { ...opts, action: opts.action ?? 'updated' });
  }

  private async notifyTopic(topic: string, dataId: string, notificationUrl: string | null, opts: NotifyOptions): Promise<{ status: number; body: unknown }> {
    const target = new URL(notificationUrl ?? `${opts.to}/api/payments/webhook`);
    const base = new URL(opts.to);
    target.protocol = base.protocol;
    target.host = base.host;
    target.searchParams.set('data.id', dataId);
    target.searchParams.set('type', topic);
    const ts = opts.ts ?? Math.floor(Date.now() / 1000);
    const requestId = opts.requestId ?? randomUUID();
    const manifest = `id:${opts.signedId ?? dataId};request-id:${requestId};ts:${ts};`;
    const v1 = createHmac('sha256', opts.secret ?? this.webhookSecret).update(manifest).digest('hex');
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
    if (!opts.unsigned) headers['x-signature'] = opts.rawSignature ?? `ts=${ts},v1=${v1}`;
    const res = await fetch(target, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        id: Math.floor(Math.random() * 1e12),
        live_mode: false,
        type: topic,
        date_created: new Date().toISOString(),
        user_id: 44444,
        api_version: 'v1',
        action: opts.action,
        data: { id: dataId },
      }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  // ---- the API ----------------------------------------------------------------------

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, message: string, error: string, cause: Array<{ code: number; description: string }>): void {
    this.send(res, status, { message, error, status, cause });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? (JSON.parse(raw) as unknown) : undefined;
    } catch {
      return this.error(res, 400, 'invalid json', 'bad_request', []);
    }
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });

    const failure = this.failures.find((f) => !f.method || f.method === req.method);
    if (failure) {
      if (--failure.times <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
      return this.send(res, failure.status, failure.body);
    }
    if (req.headers.authorization !== `Bearer ${this.accessToken}`) {
      return this.error(res, 401, 'invalid access token', 'unauthorized', [{ code: 401, description: 'invalid access token' }]);
    }
    const books = this.checkout.handle(req.method ?? '', url, body, req.headers);
    if (books) return this.send(res, books.status, books.body);
    if (req.method === 'GET' && url.pathname === '/v1/payments/search') {
      const ref = url.searchParams.get('external_reference');
      const results = [...this.payments.values()].filter((p) => ref === null || p.external_reference === ref).sort((a, b) => b.id - a.id);
      return this.send(res, 200, { paging: { total: results.length, limit: 30, offset: 0 }, results });
    }
    const one = /^\/v1\/payments\/(\d+)$/.exec(url.pathname);
    const refunds = /^\/v1\/payments\/(\d+)\/refunds$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/v1/payments') return this.create(req, res, body);
    if (req.method === 'GET' && one) {
      const p = this.payments.get(Number(one[1]));
      return p ? this.send(res, 200, p) : this.error(res, 404, 'Payment not found', 'not_found', [{ code: 2000, description: 'Payment not found' }]);
    }
    if (req.method === 'PUT' && one) return this.update(res, Number(one[1]), body);
    if (req.method === 'POST' && refunds) return this.refund(req, res, Number(refunds[1]));
    this.error(res, 404, 'resource not found', 'not_found', []);
  }

  private async create(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const key = req.headers['x-idempotency-key'];
    if (typeof key !== 'string' || !key) {
      return this.error(res, 400, 'Header X-Idempotency-Key can\'t be null', 'bad_request', [{ code: 4292, description: 'Header X-Idempotency-Key can\'t be null' }]);
    }
    const existing = this.byIdempotencyKey.get(key);
    if (existing !== undefined) return this.send(res, 201, this.payment(existing));
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const payer = (typeof b.payer === 'object' && b.payer !== null ? b.payer : {}) as Record<string, unknown>;
    if (typeof b.transaction_amount !== 'number' || b.transaction_amount <= 0) {
      return this.error(res, 400, 'transaction_amount attribute can\'t be null', 'bad_request', [{ code: 4037, description: 'Invalid transaction_amount' }]);
    }
    if (b.payment_method_id !== 'pix') return this.error(res, 400, 'payment_method_id invalid', 'bad_request', [{ code: 4050, description: 'payment_method_id invalid' }]);
    if (typeof payer.email !== 'string' || !payer.email.includes('@')) {
      return this.error(res, 400, 'payer.email must be a valid email', 'bad_request', [{ code: 4050, description: 'payer.email must be a valid email' }]);
    }
    const expiry = b.date_of_expiration;
    if (typeof expiry !== 'string' || !EXPIRY_FORMAT.test(expiry)) {
      return this.error(res, 400, 'Invalid date_of_expiration', 'bad_request', [{ code: 23, description: 'The following parameters must be valid date and format (yyyy-MM-ddTHH:mm:ss.SSSZ) date_of_expiration' }]);
    }
    const lead = Date.parse(expiry) - Date.now();
    if (lead < 30 * 60_000 || lead > 30 * 86400_000) {
      return this.error(res, 400, 'date_of_expiration must be between 30 minutes and 30 days', 'bad_request', [{ code: 4020, description: 'Invalid date_of_expiration' }]);
    }
    if (this.pixKeyMissing) {
      return this.error(res, 400, 'Collector user without key enabled for QR render', 'bad_request', [{ code: 13253, description: 'Error in Financial Identity Use Case' }]);
    }
    const id = this.nextId++;
    const code = mpBrCode(id, b.transaction_amount);
    const record: MpPaymentRecord = {
      id,
      status: 'pending',
      status_detail: 'pending_waiting_transfer',
      transaction_amount: b.transaction_amount,
      currency_id: 'BRL',
      description: String(b.description ?? ''),
      payment_method_id: 'pix',
      payment_type_id: 'bank_transfer',
      installments: 1,
      payer: { email: payer.email },
      external_reference: typeof b.external_reference === 'string' ? b.external_reference : null,
      notification_url: typeof b.notification_url === 'string' ? b.notification_url : null,
      date_created: new Date().toISOString(),
      date_approved: null,
      date_of_expiration: expiry,
      transaction_amount_refunded: 0,
      point_of_interaction: {
        type: 'PIX',
        transaction_data: {
          qr_code: code,
          qr_code_base64: (await QRCode.toBuffer(code, { type: 'png' })).toString('base64'),
          ticket_url: `${this.url}/payments/${id}/ticket?caller_id=44444&hash=${randomUUID()}`,
        },
      },
    };
    this.payments.set(id, record);
    this.byIdempotencyKey.set(key, id);
    this.send(res, 201, record);
  }

  private update(res: ServerResponse, id: number, body: unknown): void {
    const p = this.payments.get(id);
    if (!p) return this.error(res, 404, 'Payment not found', 'not_found', [{ code: 2000, description: 'Payment not found' }]);
    const status = (body as { status?: unknown } | undefined)?.status;
    if (status !== 'cancelled') return this.error(res, 400, 'Invalid status', 'bad_request', [{ code: 4023, description: 'Invalid status' }]);
    if (p.status !== 'pending' && p.status !== 'in_process') {
      return this.error(res, 400, `Payment with status ${p.status} can't be cancelled`, 'bad_request', [{ code: 4024, description: 'Invalid payment status to cancel' }]);
    }
    this.setStatus(id, 'cancelled', 'by_collector');
    this.send(res, 200, p);
  }

  private refund(req: IncomingMessage, res: ServerResponse, id: number): void {
    if (typeof req.headers['x-idempotency-key'] !== 'string') return this.error(res, 400, 'Header X-Idempotency-Key can\'t be null', 'bad_request', []);
    const p = this.payments.get(id);
    if (!p) return this.error(res, 404, 'Payment not found', 'not_found', [{ code: 2000, description: 'Payment not found' }]);
    if (p.status !== 'approved') return this.error(res, 400, 'Payment not approved', 'bad_request', [{ code: 4040, description: 'Invalid payment status' }]);
    this.setStatus(id, 'refunded', 'refunded');
    this.send(res, 201, { id: this.nextId++, payment_id: id, amount: p.transaction_amount, status: 'approved', date_created: new Date().toISOString() });
  }
}
