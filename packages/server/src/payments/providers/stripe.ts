/**
 * The Stripe provider (USD and EUR plans), through the official `stripe` SDK: Checkout Sessions
 * for one-off card payments and for subscriptions, PaymentIntents and invoices read back,
 * refunds, subscription cancellation. The facts it relies on are in docs/payments-card.md
 * ("Stripe"). STRIPE_API_URL points the SDK at another host (tests' stand-in).
 *
 * Our ids on Stripe's objects: a payment session's client_reference_id and its PaymentIntent's
 * metadata.purchaseId are the purchase; a subscription's metadata.renewalId is the renewal. A
 * payment is always a PaymentIntent (pi_…): a renewal charge is the PaymentIntent that paid its
 * invoice, so every refund and read is the same call.
 */
import type Stripe from 'stripe';
import type { Logger } from '../../logger.js';
import {
  PaymentProviderError,
  type CreateCheckoutInput,
  type CreateRenewalInput,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderRenewal,
  type ProviderRenewalStatus,
  type ProviderStatus,
} from './provider.js';

export interface StripeOptions {
  secretKey: string;
  apiUrl: string;
  logger?: Logger;
  timeoutMs?: number;
  retries?: number;
  onFailure?: (err: PaymentProviderError) => void;
}

/**
 * The SDK, loaded on first use: a server without card payments never loads it (~20 MB of a
 * process's memory, kept for its life once loaded).
 */
const stripeSdk = async () => (await import('stripe')).default;

/** The SDK's client with our host, timeout and retries (the SDK retries with an idempotency key of its own on each write). */
async function stripeClient(opts: Pick<StripeOptions, 'secretKey' | 'apiUrl' | 'timeoutMs' | 'retries'>): Promise<Stripe> {
  const Stripe = await stripeSdk();
  const url = new URL(opts.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(opts.secretKey, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    timeout: opts.timeoutMs ?? 10_000,
    maxNetworkRetries: opts.retries ?? 2,
    appInfo: { name: 'aabify' },
  });
}

/** A verified webhook event, or why not (docs/payments-card.md "Stripe webhooks"). */
export async function verifyStripeEvent(raw: Buffer, signature: string | string[] | undefined, secret: string, toleranceSeconds = 300): Promise<Stripe.Event> {
  const Stripe = await stripeSdk();
  const header = Array.isArray(signature) ? signature[0] : signature;
  if (!header) throw new Stripe.errors.StripeSignatureVerificationError(header ?? '', raw.toString('utf8'), { message: 'No Stripe-Signature header' });
  // Verification needs no key: the webhooks helper is the SDK's static one.
  return Stripe.webhooks.constructEvent(raw, header, secret, toleranceSeconds);
}

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

function intentStatus(pi: Stripe.PaymentIntent): ProviderStatus {
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  switch (pi.status) {
    case 'succeeded':
      if (charge?.refunded) return 'refunded';
      if (charge?.disputed) return 'in_mediation';
      return 'approved';
    case 'canceled':
      return 'cancelled';
    case 'requires_payment_method':
      // A declined attempt; the payer may still try another card on the same page.
      return pi.last_payment_error ? 'rejected' : 'pending';
    case 'processing':
    case 'requires_action':
    case 'requires_confirmation':
    case 'requires_capture':
      return 'pending';
    default:
      return 'unknown';
  }
}

function fromIntent(pi: Stripe.PaymentIntent, extra: { externalReference?: string | null; renewalId?: string | null } = {}): ProviderPayment {
  const status = intentStatus(pi);
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  return {
    id: pi.id,
    status,
    rawStatus: pi.status,
    statusDetail: charge?.refunded ? 'refunded' : (pi.last_payment_error?.code ?? null),
    amountCents: pi.amount,
    currency: pi.currency.toUpperCase(),
    externalReference: extra.externalReference ?? pi.metadata?.purchaseId ?? null,
    qrCode: null,
    qrCodeBase64: null,
    ticketUrl: null,
    expiresAt: null,
    approvedAt: status === 'approved' || status === 'refunded' ? new Date((charge?.created ?? pi.created) * 1000) : null,
    method: 'card',
    installments: 1,
    renewalId: extra.renewalId ?? null,
  };
}

const SUBSCRIPTION_STATUS: Record<string, ProviderRenewalStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'active',
  unpaid: 'active',
  paused: 'active',
  incomplete: 'pending',
  canceled: 'cancelled',
  incomplete_expired: 'cancelled',
};

function subscriptionOfInvoice(invoice: Stripe.Invoice): { id: string | null; renewalId: string | null } {
  const details = invoice.parent?.subscription_details ?? null;
  return { id: idOf(details?.subscription), renewalId: details?.metadata?.renewalId ?? null };
}

type StripeSdk = Awaited<ReturnType<typeof stripeSdk>>;

function classify(err: unknown, Stripe: StripeSdk): PaymentProviderError {
  if (!(err instanceof Stripe.errors.StripeError)) return new PaymentProviderError('unavailable', `Stripe unreachable: ${(err as Error).message}`);
  const detail = { httpStatus: err.statusCode, providerMessage: err.message, causeCodes: err.code ? [err.code] : [] };
  if (err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError) {
    return new PaymentProviderError('auth', 'Stripe refused the secret key', detail);
  }
  if (err.statusCode === 404 || err.code === 'resource_missing') return new PaymentProviderError('not_found', 'Stripe object not found', detail);
  if (err.code === 'charge_already_refunded' || err.statusCode === 409) return new PaymentProviderError('conflict', err.message, detail);
  if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError) {
    return new PaymentProviderError('validation', err.message, detail);
  }
  return new PaymentProviderError('unavailable', `Stripe answered ${err.statusCode ?? 'nothing'}`, detail);
}

export function createStripeProvider(opts: StripeOptions): PaymentProvider {
  let client: Promise<Stripe> | undefined;
  const logger = opts.logger;

  async function call<T>(what: string, run: (stripe: Stripe) => Promise<T>): Promise<T> {
    try {
      return await run(await (client ??= stripeClient(opts)));
    } catch (err) {
      const failure = classify(err, await stripeSdk());
      logger?.warn({ call: what, kind: failure.kind, providerMessage: failure.detail.providerMessage }, 'stripe: error answer');
      if (failure.kind === 'auth' || failure.kind === 'unavailable') opts.onFailure?.(failure);
      throw failure;
    }
  }

  const intentPath = (id: string) => {
    if (!/^pi_[A-Za-z0-9]{1,128}$/.test(id)) throw new PaymentProviderError('not_found', `not a Stripe PaymentIntent id: ${id}`);
    return id;
  };
  const retrieveIntent = (id: string) => call('paymentIntents.retrieve', (stripe) => stripe.paymentIntents.retrieve(intentPath(id), { expand: ['latest_charge'] }));

  /** A renewal charge: the invoice read with the PaymentIntent that paid (or tried to pay) it. */
  async function invoiceCharge(invoice: Stripe.Invoice): Promise<ProviderPayment | null> {
    const paid = invoice.payments?.data.find((p) => p.payment.type === 'payment_intent');
    const intentId = idOf(paid?.payment.payment_intent);
    if (!intentId) return null;
    const subscription = subscriptionOfInvoice(invoice);
    const intent = await retrieveIntent(intentId);
    const payment = fromIntent(intent, { externalReference: subscription.renewalId, renewalId: subscription.id });
    // An invoice whose attempts failed is a refused charge even while Stripe retries it.
    if (invoice.status === 'paid') return payment.status === 'pending' ? { ...payment, status: 'approved' } : payment;
    if (invoice.status === 'void' || invoice.status === 'uncollectible') return { ...payment, status: 'rejected', rawStatus: invoice.status };
    return invoice.attempt_count > 0 && payment.status === 'pending' ? { ...payment, status: 'rejected' } : payment;
  }

  async function sessionRenewal(sessionId: string): Promise<ProviderRenewal> {
    const session = await call('checkout.sessions.retrieve', (stripe) => stripe.checkout.sessions.retrieve(sessionId));
    const subscriptionId = idOf(session.subscription);
    if (subscriptionId) return subscriptionRenewal(subscriptionId);
    return {
      id: session.id,
      status: session.status === 'expired' ? 'cancelled' : 'pending',
      rawStatus: session.status ?? 'open',
      url: session.url,
      externalReference: session.metadata?.renewalId ?? null,
      amountCents: session.amount_total ?? 0,
      currency: (session.currency ?? '').toUpperCase(),
    };
  }

  async function subscriptionRenewal(subscriptionId: string): Promise<ProviderRenewal> {
    const sub = await call('subscriptions.retrieve', (stripe) => stripe.subscriptions.retrieve(subscriptionId));
    return toRenewal(sub);
  }

  function toRenewal(sub: Stripe.Subscription): ProviderRenewal {
    const item = sub.items.data[0];
    return {
      id: sub.id,
      status: SUBSCRIPTION_STATUS[sub.status] ?? 'unknown',
      rawStatus: sub.status,
      url: null,
      externalReference: sub.metadata?.renewalId ?? null,
      amountCents: item?.price.unit_amount ?? 0,
      currency: sub.currency.toUpperCase(),
    };
  }

  const unixSeconds = (d: Date) => Math.floor(d.getTime() / 1000);

  return {
    name: 'stripe',
    async createPix() {
      throw new PaymentProviderError('validation', 'Stripe does not take PIX here');
    },
    async getPayment(id) {
      return fromIntent(await retrieveIntent(id));
    },
    async cancelPayment(id) {
      await call('paymentIntents.cancel', (stripe) => stripe.paymentIntents.cancel(intentPath(id)));
      return fromIntent(await retrieveIntent(id));
    },
    async refundPayment(id, idempotencyKey) {
      await call('refunds.create', (stripe) => stripe.refunds.create({ payment_intent: intentPath(id) }, { idempotencyKey }));
      return fromIntent(await retrieveIntent(id));
    },
    async createCheckout(input: CreateCheckoutInput) {
      const session = await call('checkout.sessions.create', (stripe) =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ quantity: 1, price_data: { currency: input.currency.toLowerCase(), unit_amount: input.amountCents, product_data: { name: input.title } } }],
            customer_email: input.payerEmail,
            client_reference_id: input.externalReference,
            metadata: { purchaseId: input.externalReference },
            payment_intent_data: { metadata: { purchaseId: input.externalReference } },
            success_url: input.returnUrl,
            cancel_url: input.cancelUrl,
            expires_at: unixSeconds(input.expiresAt),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!session.url) throw new PaymentProviderError('unavailable', 'Stripe answered a Checkout Session without a url');
      return { id: session.id, url: session.url };
    },
    async checkoutPayments(checkoutId, externalReference) {
      if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(checkoutId)) throw new PaymentProviderError('not_found', `not a Stripe Checkout Session id: ${checkoutId}`);
      const session = await call('checkout.sessions.retrieve', (stripe) => stripe.checkout.sessions.retrieve(checkoutId));
      if (session.client_reference_id !== externalReference) {
        logger?.error({ checkoutId, clientReference: session.client_reference_id }, 'stripe: checkout session of another purchase');
        return [];
      }
      const intentId = idOf(session.payment_intent);
      if (!intentId) return [];
      return [fromIntent(await retrieveIntent(intentId), { externalReference: session.client_reference_id })];
    },
    async createRenewal(input: CreateRenewalInput) {
      const metadata = { renewalId: input.externalReference, purchaseId: input.purchaseId };
      const session = await call('checkout.sessions.create', (stripe) =>
        stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: input.currency.toLowerCase(),
                  unit_amount: input.amountCents,
                  product_data: { name: input.title },
                  recurring: { interval: 'month', interval_count: input.frequencyMonths },
                },
              },
            ],
            customer_email: input.payerEmail,
            client_reference_id: input.purchaseId,
            metadata,
            subscription_data: { metadata },
            success_url: input.returnUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!session.url) throw new PaymentProviderError('unavailable', 'Stripe answered a Checkout Session without a url');
      return {
        id: session.id,
        status: 'pending',
        rawStatus: session.status ?? 'open',
        url: session.url,
        externalReference: input.externalReference,
        amountCents: input.amountCents,
        currency: input.currency,
      };
    },
    async getRenewal(id) {
      if (/^cs_[A-Za-z0-9_]{1,200}$/.test(id)) return sessionRenewal(id);
      if (/^sub_[A-Za-z0-9]{1,128}$/.test(id)) return subscriptionRenewal(id);
      throw new PaymentProviderError('not_found', `not a Stripe subscription id: ${id}`);
    },
    async cancelRenewal(id) {
      if (/^cs_[A-Za-z0-9_]{1,200}$/.test(id)) {
        const current = await sessionRenewal(id);
        if (current.id !== id) return this.cancelRenewal(current.id);
        if (current.status === 'pending') await call('checkout.sessions.expire', (stripe) => stripe.checkout.sessions.expire(id));
        return { ...current, status: 'cancelled', rawStatus: 'expired' };
      }
      if (!/^sub_[A-Za-z0-9]{1,128}$/.test(id)) throw new PaymentProviderError('not_found', `not a Stripe subscription id: ${id}`);
      const current = await subscriptionRenewal(id);
      if (current.status === 'cancelled') return current;
      return toRenewal(await call('subscriptions.cancel', (stripe) => stripe.subscriptions.cancel(id)));
    },
    async renewalCharges(renewalId) {
      if (!/^sub_[A-Za-z0-9]{1,128}$/.test(renewalId)) return [];
      const invoices = await call('invoices.list', (stripe) => stripe.invoices.list({ subscription: renewalId, limit: 24, expand: ['data.payments'] }));
      const charges: ProviderPayment[] = [];
      for (const invoice of invoices.data) {
        const charge = await invoiceCharge(invoice);
        if (charge) charges.push(charge);
      }
      return charges;
    },
    async renewalCharge(chargeId) {
      if (!/^in_[A-Za-z0-9]{1,128}$/.test(chargeId)) throw new PaymentProviderError('not_found', `not a Stripe invoice id: ${chargeId}`);
      return invoiceCharge(await call('invoices.retrieve', (stripe) => stripe.invoices.retrieve(chargeId, { expand: ['payments'] })));
    },
  };
}
