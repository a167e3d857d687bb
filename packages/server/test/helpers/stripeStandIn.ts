/**
 * A local stand-in for Stripe's API as docs/payments-card.md ("Stripe") describes it, reached by
 * the official SDK through STRIPE_API_URL: form-encoded requests with bracketed keys, a Bearer
 * secret key, Idempotency-Key answered again with the first answer; Checkout Sessions (payment
 * and subscription modes; retrieve, expire), PaymentIntents (retrieve with latest_charge,
 * cancel), Refunds, Subscriptions (retrieve, cancel), Invoices (list by subscription, retrieve)
 * and errors as `{ error: { type, code, message } }`. What a payer does on Stripe's page is
 * played by completeSession and chargeSubscription; events go out signed with Stripe-Signature
 * (`t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">`).
 *
 *   const stripe = await StripeStandIn.start({ secretKey: 'sk_test_…', webhookSecret: 'whsec_…' });
 *   const pi = stripe.completeSession(sessionId, 'succeeded');
 *   await stripe.send('checkout.session.completed', stripe.session(sessionId), { to: server.url });
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface StripeRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

export interface StripeSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  url: string | null;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  payment_intent: string | null;
  subscription: string | null;
  success_url: string;
  cancel_url: string | null;
  expires_at: number;
  created: number;
  line_items: Json[];
  payment_intent_data: Json | null;
  subscription_data: Json | null;
}

export interface StripeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  refunded: boolean;
  disputed: boolean;
  paid: boolean;
  status: 'succeeded' | 'failed';
  payment_intent: string;
  created: number;
}

export interface StripeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error: { code: string; message: string; type: 'card_error' } | null;
  created: number;
}

export interface StripeSubscription {
  id: string;
  object: 'subscription';
  status: 'active' | 'past_due' | 'canceled' | 'incomplete';
  currency: string;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Array<{ id: string; object: 'subscription_item'; price: { id: string; unit_amount: number; currency: string; recurring: { interval: string; interval_count: number } } }> };
  canceled_at: number | null;
  created: number;
}

export interface StripeInvoice {
  id: string;
  object: 'invoice';
  status: 'open' | 'paid' | 'void' | 'uncollectible';
  amount_due: number;
  currency: string;
  attempt_count: number;
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } };
  payments: { object: 'list'; data: Array<{ id: string; object: 'invoice_payment'; payment: { type: 'payment_intent'; payment_intent: string } }> };
  created: number;
}

export interface SendOptions {
  /** Our server's base URL: the event goes to <to>/api/payments/stripe/webhook. */
  to: string;
  /** Signs with another secret (a forgery). */
  secret?: string;
  /** Unix seconds in the signature (default now). */
  ts?: number;
  /** Sends the same event again (a replay): its id and body are kept. */
  eventId?: string;
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `a[b][0][c]=1` → { a: { b: [ { c: '1' } ] } }, as Stripe reads form bodies and query strings. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Json | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const slot = part === '' && Array.isArray(node) ? String(node.length) : part;
      const container = node as Record<string, unknown>;
      if (last) container[slot] = value;
      else {
        if (container[slot] === undefined) container[slot] = /^\d*$/.test(path[i + 1]) ? [] : {};
        node = container[slot] as Json | unknown[];
      }
    });
  }
  return root;
}

const strings = (v: unknown): Record<string, string> => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : {});

export class StripeStandIn {
  readonly requests: StripeRecordedRequest[] = [];
  readonly sessions = new Map<string, StripeSession>();
  readonly intents = new Map<string, StripeIntent>();
  readonly charges = new Map<string, StripeCharge>();
  readonly subscriptions = new Map<string, StripeSubscription>();
  readonly invoices = new Map<string, StripeInvoice>();
  private readonly byIdempotencyKey = new Map<string, { status: number; body: unknown }>();
  private server!: Server;
  url = '';

  private constructor(readonly secretKey: string, readonly webhookSecret: string) {}

  static async start(opts: { secretKey: string; webhookSecret: string }): Promise<StripeStandIn> {
    const stand = new StripeStandIn(opts.secretKey, opts.webhookSecret);
    stand.server = createServer((req, res) => void stand.handle(req, res));
    await new Promise<void>((resolve) => stand.server.listen(0, '127.0.0.1', resolve));
    stand.url = `http://127.0.0.1:${(stand.server.address() as AddressInfo).port}`;
    return stand;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  session(id: string): StripeSession {
    const s = this.sessions.get(id);
    if (!s) throw new Error(`stand-in has no session ${id}`);
    return s;
  }

  sessionOf(clientReference: string): StripeSession {
    const s = [...this.sessions.values()].find((x) => x.client_reference_id === clientReference);
    if (!s) throw new Error(`stand-in has no session for ${clientReference}`);
    return s;
  }

  /** The intent with its latest charge expanded, as the SDK asks for it. */
  intent(id: string): Json {
    const pi = this.intents.get(id);
    if (!pi) throw new Error(`stand-in has no payment intent ${id}`);
    return { ...pi, latest_charge: pi.latest_charge ? this.charges.get(pi.latest_charge) : null };
  }

  /**
   * The payer pays on the Checkout page. Payment mode: a PaymentIntent that succeeded or was
   * declined (the page stays open for another card). Subscription mode: the subscription and
   * its first invoice, paid or failed. Answers the PaymentIntent id.
   */
  completeSession(id: string, outcome: 'succeeded' | 'declined'): string {
    const session = this.session(id);
    if (session.mode === 'subscription') {
      const sub = this.createSubscription(session);
      session.subscription = sub.id;
      session.status = 'complete';
      session.payment_status = outcome === 'succeeded' ? 'paid' : 'unpaid';
      const invoice = this.chargeSubscription(sub.id, outcome === 'succeeded' ? 'paid' : 'failed');
      return invoice.payments.data[0].payment.payment_intent;
    }
    const metadata = strings(session.payment_intent_data?.metadata);
    const pi = this.createIntent(session.amount_total, session.currency, metadata, outcome);
    session.payment_intent = pi.id;
    if (outcome === 'succeeded') {
      session.status = 'complete';
      session.payment_status = 'paid';
    }
    return pi.id;
  }

  /** A period's invoice of a subscription, paid or failed. */
  chargeSubscription(subscriptionId: string, outcome: 'paid' | 'failed'): StripeInvoice {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`stand-in has no subscription ${subscriptionId}`);
    const price = sub.items.data[0].price;
    const pi = this.createIntent(price.unit_amount, price.currency, {}, outcome === 'paid' ? 'succeeded' : 'declined');
    const invoice: StripeInvoice = {
      id: newId('in'),
      object: 'invoice',
      status: outcome === 'paid' ? 'paid' : 'open',
      amount_due: price.unit_amount,
      currency: price.currency,
      attempt_count: 1,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
      payments: { object: 'list', data: [{ id: newId('inpay'), object: 'invoice_payment', payment: { type: 'payment_intent', payment_intent: pi.id } }] },
      created: now(),
    };
    this.invoices.set(invoice.id, invoice);
    if (outcome === 'failed' && sub.status === 'active' && this.paidInvoices(sub.id) > 0) sub.status = 'past_due';
    if (outcome === 'paid') sub.status = 'active';
    return invoice;
  }

  /** Sends an event about `object` to our webhook, signed; answers our status and body. */
  async send(type: string, object: unknown, opts: SendOptions): Promise<{ status: number; body: unknown; eventId: string }> {
    const eventId = opts.eventId ?? newId('evt');
    const payload = JSON.stringify({ id: eventId, object: 'event', api_version: '2025-01-01', created: now(), livemode: false, pending_webhooks: 1, type, data: { object } });
    const ts = opts.ts ?? now();
    const v1 = createHmac('sha256', opts.secret ?? this.webhookSecret).update(`${ts}.${payload}`).digest('hex');
    const res = await fetch(`${opts.to}/api/payments/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${ts},v1=${v1}` },
      body: payload,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body, eventId };
  }

  private paidInvoices(subscriptionId: string): number {
    return [...this.invoices.values()].filter((i) => i.parent.subscription_details.subscription === subscriptionId && i.status === 'paid').length;
  }

  private createIntent(amount: number, currency: string, metadata: Record<string, string>, outcome: 'succeeded' | 'declined'): StripeIntent {
    const pi: StripeIntent = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      currency,
      status: outcome === 'succeeded' ? 'succeeded' : 'requires_payment_method',
      metadata,
      latest_charge: null,
      last_payment_error: outcome === 'declined' ? { code: 'card_declined', message: 'Your card was declined.', type: 'card_error' } : null,
      created: now(),
    };
    const charge: StripeCharge = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_refunded: 0,
      currency,
      refunded: false,
      disputed: false,
      paid: outcome === 'succeeded',
      status: outcome === 'succeeded' ? 'succeeded' : 'failed',
      payment_intent: pi.id,
      created: now(),
    };
    pi.latest_charge = charge.id;
    this.charges.set(charge.id, charge);
    this.intents.set(pi.id, pi);
    return pi;
  }

  private createSubscription(session: StripeSession): StripeSubscription {
    const item = session.line_items[0];
    const priceData = isObject(item?.price_data) ? item.price_data : {};
    const recurring = isObject(priceData.recurring) ? priceData.recurring : {};
    const sub: StripeSubscription = {
      id: newId('sub'),
      object: 'subscription',
      status: 'incomplete',
      currency: session.currency,
      metadata: strings(session.subscription_data?.metadata),
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            price: { id: newId('price'), unit_amount: Number(priceData.unit_amount), currency: session.currency, recurring: { interval: String(recurring.interval), interval_count: Number(recurring.interval_count) } },
          },
        ],
      },
      canceled_at: null,
      created: now(),
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, type: string, message: string, code?: string): void {
    this.reply(res, status, { error: { type, message, ...(code ? { code } : {}) } });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.url);
    const body = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, headers: req.headers, body: method === 'GET' ? parseStripeForm(url.search.slice(1)) : body });
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) return this.error(res, 401, 'invalid_request_error', 'Invalid API Key provided');
    const key = method === 'POST' && typeof req.headers['idempotency-key'] === 'string' ? `${url.pathname}:${req.headers['idempotency-key']}` : null;
    const earlier = key ? this.byIdempotencyKey.get(key) : undefined;
    if (earlier) return this.reply(res, earlier.status, earlier.body);
    const answer = this.route(method, url, body);
    if (key && answer.status < 500) this.byIdempotencyKey.set(key, answer);
    this.reply(res, answer.status, answer.body);
  }

  private route(method: string, url: URL, body: Json): { status: number; body: unknown } {
    const path = url.pathname;
    const missing = (what: string, id: string) => ({ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` } } });
    const invalid = (message: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', message } } });
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(body, invalid);
    let m = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (m) {
      const session = this.sessions.get(m[1]);
      if (!session) return missing('checkout.session', m[1]);
      if (m[2] && method === 'POST') {
        if (session.status !== 'open') return invalid('Only Checkout Sessions with a status in ["open"] can be expired.');
        session.status = 'expired';
        session.url = null;
      }
      return { status: 200, body: session };
    }
    m = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
    if (m) {
      const pi = this.intents.get(m[1]);
      if (!pi) return missing('payment_intent', m[1]);
      if (m[2] && method === 'POST') {
        if (pi.status === 'succeeded') return invalid('This PaymentIntent could not be canceled because it has a status of succeeded.');
        pi.status = 'canceled';
      }
      const expand = JSON.stringify(parseStripeForm(url.search.slice(1)).expand ?? []);
      return { status: 200, body: expand.includes('latest_charge') ? this.intent(pi.id) : pi };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = this.intents.get(String(body.payment_intent));
      if (!pi) return missing('payment_intent', String(body.payment_intent));
      const charge = pi.latest_charge ? this.charges.get(pi.latest_charge) : undefined;
      if (!charge || pi.status !== 'succeeded') return invalid('This PaymentIntent does not have a successful charge to refund.');
      if (charge.refunded) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` } } };
      charge.refunded = true;
      charge.amount_refunded = charge.amount;
      return { status: 200, body: { id: newId('re'), object: 'refund', amount: charge.amount, currency: charge.currency, payment_intent: pi.id, charge: charge.id, status: 'succeeded', created: now() } };
    }
    m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (m) {
      const sub = this.subscriptions.get(m[1]);
      if (!sub) return missing('subscription', m[1]);
      if (method === 'DELETE') {
        if (sub.status === 'canceled') return invalid('This subscription has already been canceled.');
        sub.status = 'canceled';
        sub.canceled_at = now();
      }
      return { status: 200, body: sub };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const subscription = url.searchParams.get('subscription');
      const data = [...this.invoices.values()].filter((i) => i.parent.subscription_details.subscription === subscription).sort((a, b) => b.created - a.created);
      return { status: 200, body: { object: 'list', url: '/v1/invoices', has_more: false, data } };
    }
    m = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (m && method === 'GET') {
      const invoice = this.invoices.get(m[1]);
      return invoice ? { status: 200, body: invoice } : missing('invoice', m[1]);
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  private createSession(body: Json, invalid: (m: string) => { status: number; body: unknown }): { status: number; body: unknown } {
    const mode = body.mode;
    if (mode !== 'payment' && mode !== 'subscription') return invalid('Invalid mode: must be one of payment, setup, or subscription');
    const items = Array.isArray(body.line_items) ? body.line_items.filter(isObject) : [];
    const priceData = isObject(items[0]?.price_data) ? items[0].price_data : null;
    if (items.length !== 1 || !priceData) return invalid('line_items[0][price_data] is required');
    const currency = String(priceData.currency ?? '');
    const amount = Number(priceData.unit_amount);
    if (!['usd', 'eur', 'brl'].includes(currency)) return invalid(`Invalid currency: ${currency}`);
    if (!Number.isInteger(amount) || amount < 50) return invalid('The Checkout Session\'s total amount due must add up to at least $0.50 usd');
    if (mode === 'subscription' && !isObject(priceData.recurring)) return invalid('You must provide at least one recurring price in `subscription` mode');
    if (typeof body.success_url !== 'string' || !/^https?:\/\//.test(body.success_url)) return invalid('Not a valid URL: success_url');
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const session: StripeSession = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.url}/c/pay/${id}`,
      client_reference_id: typeof body.client_reference_id === 'string' ? body.client_reference_id : null,
      customer_email: typeof body.customer_email === 'string' ? body.customer_email : null,
      metadata: strings(body.metadata),
      amount_total: amount * Number(items[0].quantity ?? 1),
      currency,
      payment_intent: null,
      subscription: null,
      success_url: body.success_url,
      cancel_url: typeof body.cancel_url === 'string' ? body.cancel_url : null,
      expires_at: Number(body.expires_at ?? now() + 86400),
      created: now(),
      line_items: items,
      payment_intent_data: isObject(body.payment_intent_data) ? body.payment_intent_data : null,
      subscription_data: isObject(body.subscription_data) ? body.subscription_data : null,
    };
    this.sessions.set(id, session);
    return { status: 200, body: session };
  }
}
