/**
 * POST /api/payments/stripe/webhook — Stripe events (docs/payments-card.md "Stripe webhooks").
 * The body arrives raw (http/app.ts) so that its `Stripe-Signature` (HMAC-SHA256 with
 * STRIPE_WEBHOOK_SECRET over "<t>.<body>", at most 5 minutes old) is checked by the SDK; a
 * forged or stale event answers 400 and changes nothing. A verified event is only a hint: the
 * object it names is read back from Stripe and that answer is applied, once (a replay finds
 * nothing new). 500 when Stripe could not be read, so Stripe retries.
 */
import type { RequestHandler } from 'express';
import type Stripe from 'stripe';
import { PAYMENT_MESSAGES as M } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { verifyStripeEvent } from './providers/index.js';
import { syncPayment } from './paymentSynchronizer.js';
import { recordRenewalCharge, syncCheckout, syncRenewal } from './checkoutSynchronizer.js';

const ACTOR = 'webhook:stripe';

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null);

export function stripeWebhook(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const secret = ctx.payments.stripeWebhookSecret();
    if (!secret) throw ApiError.notFound(undefined, 'ROUTE_NOT_FOUND');
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let event: Stripe.Event;
    try {
      event = await verifyStripeEvent(raw, req.headers['stripe-signature'], secret);
    } catch (err) {
      ctx.logger.warn({ webhook: 'stripe', address: req.ip, reason: (err as Error).message }, 'webhook refused: Stripe signature check failed');
      throw new ApiError(400, 'WEBHOOK_SIGNATURE_INVALID', M.webhookSignatureInvalid);
    }
    const log = ctx.logger.child({ webhook: 'stripe', eventId: event.id, type: event.type });
    try {
      const outcome = await process(ctx, event);
      log.info(outcome, 'webhook processed');
      res.status(200).json({ received: true, ...outcome });
    } catch (err) {
      log.error({ err }, 'webhook: could not be read back; Stripe will retry');
      throw new ApiError(500, 'WEBHOOK_PROCESSING_FAILED', M.internal);
    }
  };
}

async function process(ctx: AppContext, event: Stripe.Event): Promise<{ processed: boolean; changed?: boolean }> {
  const object: unknown = event.data.object;
  const objectId = idOf(object);
  if (!objectId) return { processed: false };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const purchase = await ctx.models.Purchase.findOne({ where: { provider: 'stripe', checkoutId: objectId } });
      const renewal = purchase?.renewalId ? null : await ctx.models.Renewal.findOne({ where: { provider: 'stripe', providerRenewalId: objectId } });
      if (!purchase && !renewal) return { processed: false };
      if (purchase?.renewalId || renewal) return { processed: true, ...(await syncRenewal(ctx, purchase?.renewalId ?? renewal!.id, { actor: ACTOR })) };
      // An expired session with nothing paid is closed by the reconciliation job (paymentExpirer.ts), on our clock.
      return { processed: true, ...(await syncCheckout(ctx, purchase!.id, { actor: ACTOR })) };
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed': {
      const provider = await ctx.payments.provider('stripe');
      const charge = await provider.renewalCharge(objectId);
      if (!charge) return { processed: false };
      const renewal =
        (charge.externalReference ? await ctx.models.Renewal.findOne({ where: { provider: 'stripe', id: charge.externalReference } }) : null) ??
        (charge.renewalId ? await ctx.models.Renewal.findOne({ where: { provider: 'stripe', providerRenewalId: charge.renewalId } }) : null);
      if (!renewal) return { processed: false };
      // The subscription's own state first (Stripe names the renewal by its session until then).
      await syncRenewalState(ctx, renewal.id);
      const result = await recordRenewalCharge(ctx, renewal.id, charge, { actor: ACTOR });
      return { processed: result !== null, changed: result?.changed ?? false };
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const renewal = await ctx.models.Renewal.findOne({ where: { provider: 'stripe', providerRenewalId: objectId } });
      if (!renewal) return { processed: false };
      return { processed: true, ...(await syncRenewal(ctx, renewal.id, { actor: ACTOR })) };
    }
    case 'charge.refunded':
    case 'charge.dispute.created': {
      const intentId = idOf((object as { payment_intent?: unknown }).payment_intent);
      const payment = intentId ? await ctx.models.Payment.findOne({ where: { provider: 'stripe', providerPaymentId: intentId } }) : null;
      if (!payment) return { processed: false };
      return { processed: true, changed: (await syncPayment(ctx, payment.id, { actor: ACTOR })).changed };
    }
    default:
      return { processed: false };
  }
}

/** The renewal's state read back, when it is still known by its Checkout Session. */
async function syncRenewalState(ctx: AppContext, renewalId: string): Promise<void> {
  const renewal = await ctx.models.Renewal.findByPk(renewalId);
  if (renewal?.providerRenewalId?.startsWith('cs_')) await syncRenewal(ctx, renewal.id, { actor: ACTOR });
}
