/**
 * The Checkout Pro and recurring-payment books of the Mercado Pago stand-in
 * (mercadoPagoStandIn.ts), speaking docs/payments-card.md: POST /checkout/preferences (items,
 * external_reference, back_urls, payment_methods.installments; X-Idempotency-Key answered
 * again), POST /preapproval (status pending, auto_recurring in months), GET and PUT
 * /preapproval/{id} (cancel), GET /authorized_payments/{id} and /authorized_payments/search.
 * What a payer does on Mercado Pago's pages is played by payPreference, authorize and charge.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export type MpStatus = 'pending' | 'approved' | 'authorized' | 'in_process' | 'in_mediation' | 'rejected' | 'cancelled' | 'refunded' | 'charged_back';

/** A payment to make in the main books (a payer paid on a page, or a preapproval charged). */
export interface PaymentSeed {
  amount: number;
  description: string;
  email: string;
  externalReference: string | null;
  notificationUrl: string | null;
  paymentTypeId: 'credit_card' | 'ticket' | 'account_money';
  paymentMethodId: string;
  installments: number;
  status: MpStatus;
  statusDetail: string;
}

export interface PreferenceRecord {
  id: string;
  init_point: string;
  sandbox_init_point: string;
  items: Array<{ id?: string; title: string; quantity: number; currency_id: string; unit_price: number }>;
  payer: { email?: string };
  external_reference: string | null;
  notification_url: string | null;
  back_urls: { success?: string; pending?: string; failure?: string };
  auto_return: string | null;
  payment_methods: { installments?: number };
  expires: boolean;
  expiration_date_to: string | null;
  date_created: string;
}

export interface PreapprovalRecord {
  id: string;
  status: 'pending' | 'authorized' | 'paused' | 'cancelled';
  reason: string;
  external_reference: string | null;
  payer_email: string;
  init_point: string;
  back_url: string;
  notification_url: string | null;
  auto_recurring: { frequency: number; frequency_type: string; transaction_amount: number; currency_id: string };
  date_created: string;
}

export interface AuthorizedPaymentRecord {
  id: number;
  type: 'recurring';
  preapproval_id: string;
  status: 'scheduled' | 'processed' | 'recycling' | 'cancelled';
  transaction_amount: number;
  currency_id: string;
  external_reference: string | null;
  reason: string;
  date_created: string;
  debit_date: string;
  retry_attempt: number;
  payment: { id: number; status: MpStatus; status_detail: string } | null;
}

type Answer = { status: number; body: unknown } | null;

const CARD_DETAILS: Partial<Record<MpStatus, string>> = { approved: 'accredited', rejected: 'cc_rejected_insufficient_amount', in_process: 'pending_review_manual' };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const bad = (message: string, code: number): Answer => ({ status: 400, body: { message, error: 'bad_request', status: 400, cause: [{ code, description: message }] } });
const notFound = (what: string): Answer => ({ status: 404, body: { message: `${what} not found`, error: 'not_found', status: 404, cause: [] } });

export class MpCheckoutBooks {
  readonly preferences = new Map<string, PreferenceRecord>();
  readonly preapprovals = new Map<string, PreapprovalRecord>();
  readonly authorized = new Map<number, AuthorizedPaymentRecord>();
  private readonly byIdempotencyKey = new Map<string, string>();
  private nextAuthorizedId = 7_000_000_001;

  constructor(private readonly deps: { createPayment(seed: PaymentSeed): { id: number }; baseUrl(): string }) {}

  /** The request's answer when it is one of these books' calls; null otherwise. */
  handle(method: string, url: URL, body: unknown, headers: IncomingHttpHeaders): Answer {
    const path = url.pathname;
    if (method === 'POST' && path === '/checkout/preferences') return this.createPreference(body, headers);
    if (method === 'POST' && path === '/preapproval') return this.createPreapproval(body, headers);
    const preapproval = /^\/preapproval\/([a-z0-9]+)$/.exec(path);
    if (preapproval && method === 'GET') return this.preapprovals.has(preapproval[1]) ? { status: 200, body: this.preapprovals.get(preapproval[1]) } : notFound('preapproval');
    if (preapproval && method === 'PUT') return this.updatePreapproval(preapproval[1], body);
    if (method === 'GET' && path === '/authorized_payments/search') {
      const id = url.searchParams.get('preapproval_id');
      const results = [...this.authorized.values()].filter((a) => a.preapproval_id === id);
      return { status: 200, body: { paging: { total: results.length, limit: 30, offset: 0 }, results } };
    }
    const authorized = /^\/authorized_payments\/(\d+)$/.exec(path);
    if (authorized && method === 'GET') {
      const found = this.authorized.get(Number(authorized[1]));
      return found ? { status: 200, body: found } : notFound('authorized payment');
    }
    return null;
  }

  preference(id: string): PreferenceRecord {
    const p = this.preferences.get(id);
    if (!p) throw new Error(`stand-in has no preference ${id}`);
    return p;
  }

  preapproval(id: string): PreapprovalRecord {
    const p = this.preapprovals.get(id);
    if (!p) throw new Error(`stand-in has no preapproval ${id}`);
    return p;
  }

  /** The payer pays on the Checkout Pro page: a card (approved, rejected, in review) or a boleto (pending). Answers the payment id. */
  payPreference(id: string, how: { type: 'credit_card' | 'ticket' | 'account_money'; status: MpStatus; installments?: number }): number {
    const pref = this.preference(id);
    const item = pref.items[0];
    const ticket = how.type === 'ticket';
    return this.deps.createPayment({
      amount: item.unit_price * item.quantity,
      description: item.title,
      email: pref.payer.email ?? 'payer@example.com',
      externalReference: pref.external_reference,
      notificationUrl: pref.notification_url,
      paymentTypeId: how.type,
      paymentMethodId: ticket ? 'bolbradesco' : how.type === 'account_money' ? 'account_money' : 'master',
      installments: ticket ? 1 : (how.installments ?? 1),
      status: ticket ? 'pending' : how.status,
      statusDetail: ticket ? 'pending_waiting_payment' : (CARD_DETAILS[how.status] ?? how.status),
    }).id;
  }

  /** The payer authorizes the preapproval on its page; its first charge is made (approved unless told). Answers the authorized payment id. */
  authorize(id: string, firstCharge: 'approved' | 'rejected' = 'approved'): number {
    const pre = this.preapproval(id);
    pre.status = 'authorized';
    return this.charge(id, firstCharge);
  }

  /** A period's charge of an authorized preapproval. Answers the authorized payment id. */
  charge(id: string, status: 'approved' | 'rejected'): number {
    const pre = this.preapproval(id);
    const payment = this.deps.createPayment({
      amount: pre.auto_recurring.transaction_amount,
      description: pre.reason,
      email: pre.payer_email,
      externalReference: pre.external_reference,
      notificationUrl: pre.notification_url,
      paymentTypeId: 'credit_card',
      paymentMethodId: 'master',
      installments: 1,
      status,
      statusDetail: CARD_DETAILS[status] ?? status,
    });
    const now = new Date().toISOString();
    const record: AuthorizedPaymentRecord = {
      id: this.nextAuthorizedId++,
      type: 'recurring',
      preapproval_id: pre.id,
      status: status === 'approved' ? 'processed' : 'recycling',
      transaction_amount: pre.auto_recurring.transaction_amount,
      currency_id: pre.auto_recurring.currency_id,
      external_reference: pre.external_reference,
      reason: pre.reason,
      date_created: now,
      debit_date: now,
      retry_attempt: status === 'approved' ? 0 : 1,
      payment: { id: payment.id, status, status_detail: CARD_DETAILS[status] ?? status },
    };
    this.authorized.set(record.id, record);
    return record.id;
  }

  notificationUrlOf(topic: string, id: string): string | null {
    if (topic === 'subscription_preapproval') return this.preapprovals.get(id)?.notification_url ?? null;
    const charge = this.authorized.get(Number(id));
    return charge ? (this.preapprovals.get(charge.preapproval_id)?.notification_url ?? null) : null;
  }

  private idempotent(headers: IncomingHttpHeaders, kind: string): { key: string | null; existing: string | undefined } {
    const key = typeof headers['x-idempotency-key'] === 'string' ? `${kind}:${headers['x-idempotency-key']}` : null;
    return { key, existing: key ? this.byIdempotencyKey.get(key) : undefined };
  }

  private createPreference(body: unknown, headers: IncomingHttpHeaders): Answer {
    const { key, existing } = this.idempotent(headers, 'preference');
    if (existing) return { status: 201, body: this.preferences.get(existing) };
    if (!isObject(body) || !Array.isArray(body.items) || body.items.length === 0) return bad('items needed', 4001);
    const items = body.items.filter(isObject).map((i) => ({
      id: typeof i.id === 'string' ? i.id : undefined,
      title: String(i.title ?? ''),
      quantity: Number(i.quantity),
      currency_id: String(i.currency_id ?? 'BRL'),
      unit_price: Number(i.unit_price),
    }));
    if (items.some((i) => !i.title || !Number.isInteger(i.quantity) || i.quantity < 1 || !(i.unit_price > 0))) return bad('invalid items', 4002);
    if (items.some((i) => i.currency_id !== 'BRL')) return bad('currency_id invalid for this site', 4003);
    const backUrls = isObject(body.back_urls) ? (body.back_urls as PreferenceRecord['back_urls']) : {};
    if (body.auto_return && !backUrls.success) return bad('auto_return invalid. back_url.success must be defined', 4004);
    const id = `44444-${randomBytes(12).toString('hex')}`;
    const record: PreferenceRecord = {
      id,
      init_point: `${this.deps.baseUrl()}/checkout/v1/redirect?pref_id=${id}`,
      sandbox_init_point: `${this.deps.baseUrl()}/sandbox/checkout/v1/redirect?pref_id=${id}`,
      items,
      payer: isObject(body.payer) ? { email: typeof body.payer.email === 'string' ? body.payer.email : undefined } : {},
      external_reference: typeof body.external_reference === 'string' ? body.external_reference : null,
      notification_url: typeof body.notification_url === 'string' ? body.notification_url : null,
      back_urls: backUrls,
      auto_return: typeof body.auto_return === 'string' ? body.auto_return : null,
      payment_methods: isObject(body.payment_methods) ? { installments: Number(body.payment_methods.installments) } : {},
      expires: body.expires === true,
      expiration_date_to: typeof body.expiration_date_to === 'string' ? body.expiration_date_to : null,
      date_created: new Date().toISOString(),
    };
    this.preferences.set(id, record);
    if (key) this.byIdempotencyKey.set(key, id);
    return { status: 201, body: record };
  }

  private createPreapproval(body: unknown, headers: IncomingHttpHeaders): Answer {
    const { key, existing } = this.idempotent(headers, 'preapproval');
    if (existing) return { status: 201, body: this.preapprovals.get(existing) };
    if (!isObject(body) || !isObject(body.auto_recurring)) return bad('auto_recurring needed', 4101);
    const recurring = body.auto_recurring;
    if (!['days', 'months'].includes(String(recurring.frequency_type)) || !(Number(recurring.frequency) > 0)) return bad('invalid frequency', 4102);
    if (!(Number(recurring.transaction_amount) > 0) || recurring.currency_id !== 'BRL') return bad('invalid transaction_amount or currency_id', 4103);
    if (typeof body.payer_email !== 'string' || !body.payer_email.includes('@')) return bad('payer_email invalid', 4104);
    if (typeof body.back_url !== 'string' || !/^https?:\/\//.test(body.back_url)) return bad('back_url invalid', 4105);
    if (body.status !== 'pending') return bad('card_token_id is required', 4106);
    const id = randomBytes(16).toString('hex');
    const record: PreapprovalRecord = {
      id,
      status: 'pending',
      reason: String(body.reason ?? ''),
      external_reference: typeof body.external_reference === 'string' ? body.external_reference : null,
      payer_email: body.payer_email,
      init_point: `${this.deps.baseUrl()}/subscriptions/checkout?preapproval_id=${id}`,
      back_url: body.back_url,
      notification_url: typeof body.notification_url === 'string' ? body.notification_url : null,
      auto_recurring: {
        frequency: Number(recurring.frequency),
        frequency_type: String(recurring.frequency_type),
        transaction_amount: Number(recurring.transaction_amount),
        currency_id: 'BRL',
      },
      date_created: new Date().toISOString(),
    };
    this.preapprovals.set(id, record);
    if (key) this.byIdempotencyKey.set(key, id);
    return { status: 201, body: record };
  }

  private updatePreapproval(id: string, body: unknown): Answer {
    const pre = this.preapprovals.get(id);
    if (!pre) return notFound('preapproval');
    const status = isObject(body) ? body.status : undefined;
    if (status !== 'cancelled' && status !== 'paused' && status !== 'authorized') return bad('invalid status', 4107);
    if (pre.status === 'cancelled') return bad('You can not modify a cancelled preapproval', 4108);
    pre.status = status;
    return { status: 200, body: pre };
  }
}
