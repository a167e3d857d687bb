/**
 * POST /api/payments/webhook — Mercado Pago notifications (docs/payments-pix.md "Webhooks",
 * docs/payments-card.md "Notifications"). The signature is checked against the webhook secret;
 * then what the notification names is read back from Mercado Pago and only that answer changes
 * state: a payment (a PIX charge of ours, or a card, boleto or PIX payment made on a Checkout
 * Pro page of ours, found by its external_reference), a preapproval (a renewal's state) or an
 * authorized payment (a renewal's charge). Replays change nothing. Answers 200 at once for
 * what is not ours, and, with no secret configured, for a payment read back less than 5 s ago;
 * 500 when Mercado Pago could not be read, so it retries.
 */
import type { Request, RequestHandler } from 'express';
import { PAYMENT_MESSAGES as M, isUuid } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { isPaymentProviderError, verifyMercadoPagoSignature } from './providers/index.js';
import { claimProviderRead, syncPayment, type SyncResult } from './paymentSynchronizer.js';
import { recordProviderPayment } from './paymentRecorder.js';
import { recordRenewalCharge, syncRenewal } from './checkoutSynchronizer.js';

const TOPICS = ['payment', 'subscription_preapproval', 'subscription_authorized_payment'] as const;
type Topic = (typeof TOPICS)[number];
const isTopic = (v: string | undefined): v is Topic => (TOPICS as readonly string[]).includes(v ?? '');
const ACTOR = 'webhook:mercadopago';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);

function bodyField(req: Request, ...path: string[]): string | undefined {
  let at: unknown = req.body;
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'string' || typeof at === 'number' ? String(at) : undefined;
}

export function mercadoPagoWebhook(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    // data.id of the query is what Mercado Pago signs; legacy IPN sends ?topic=payment&id=…
    const signedId = text(req.query['data.id']);
    const dataId = signedId ?? text(req.query.id) ?? bodyField(req, 'data', 'id');
    const topic = text(req.query.type) ?? text(req.query.topic) ?? bodyField(req, 'type');
    const requestId = text(req.headers['x-request-id']);
    const log = ctx.logger.child({ webhook: 'mercadopago', dataId, topic, requestId });

    // A configured provider that cannot be used takes no notification (503: Mercado Pago retries later).
    const state = await ctx.payments.state();
    if (!state.available) {
      log.warn({ reason: state.reason }, 'webhook refused: payments unavailable');
      throw new ApiError(503, 'PAYMENTS_UNAVAILABLE', M.paymentsUnavailable);
    }
    const secret = await ctx.payments.webhookSecret();
    if (secret) {
      const check = verifyMercadoPagoSignature({
        xSignature: req.headers['x-signature'],
        xRequestId: req.headers['x-request-id'],
        dataId: signedId,
        secret,
      });
      if (!check.ok) {
        log.warn({ reason: check.reason, address: req.ip }, 'webhook refused: signature check failed');
        const message = check.reason === 'stale_timestamp' ? M.webhookStale : M.webhookSignatureInvalid;
        throw new ApiError(401, check.reason === 'stale_timestamp' ? 'WEBHOOK_STALE' : 'WEBHOOK_SIGNATURE_INVALID', message);
      }
    } else {
      log.warn('webhook secret not configured: signature not checked (the payment is still re-read from Mercado Pago)');
    }

    if (!isTopic(topic) || !dataId) {
      log.info('webhook ignored: not a payment or subscription notification');
      return res.status(200).json({ received: true, processed: false });
    }
    let outcome: { processed: boolean; changed?: boolean };
    try {
      outcome = await process(ctx, topic, dataId, Boolean(secret), log);
    } catch (err) {
      log.error({ err }, 'webhook: could not be read back; Mercado Pago will retry');
      throw new ApiError(500, 'WEBHOOK_PROCESSING_FAILED', M.internal);
    }
    log.info(outcome, 'webhook processed');
    res.status(200).json({ received: true, ...outcome });
  };
}

type Log = AppContext['logger'];

async function process(ctx: AppContext, topic: Topic, dataId: string, signed: boolean, log: Log): Promise<{ processed: boolean; changed?: boolean }> {
  const done = (result: SyncResult | { changed: boolean } | null) => ({ processed: result !== null, changed: result?.changed ?? false });
  if (topic === 'subscription_preapproval') {
    const renewal = await ctx.models.Renewal.findOne({ where: { provider: 'mercadopago', providerRenewalId: dataId } });
    if (!renewal) return { processed: false };
    return done(await syncRenewal(ctx, renewal.id, { actor: ACTOR }));
  }
  const provider = await ctx.payments.provider('mercadopago');
  if (topic === 'subscription_authorized_payment') {
    const charge = await provider.renewalCharge(dataId);
    const renewal = charge?.renewalId ? await ctx.models.Renewal.findOne({ where: { provider: 'mercadopago', providerRenewalId: charge.renewalId } }) : null;
    if (!charge || !renewal) return { processed: false };
    return done(await recordRenewalCharge(ctx, renewal.id, charge, { actor: ACTOR }));
  }
  const payment = await ctx.models.Payment.findOne({ where: { provider: 'mercadopago', providerPaymentId: dataId } });
  if (payment) {
    // Unsigned, a notification proves nothing and only makes us read: anyone who knows a payment
    // id could spend the merchant's API quota. A read less than 5 s old answers it, as for polling.
    // A signed one is Mercado Pago's own and may tell of a change made a moment ago: read at once.
    if (!signed && !(await claimProviderRead(ctx, payment))) {
      log.info({ paymentId: payment.id }, 'webhook acknowledged: payment read back moments ago');
      return { processed: false };
    }
    return done(await syncPayment(ctx, payment.id, { actor: ACTOR }));
  }
  // A payment made on a checkout page of ours, or by a renewal: its external_reference says whose.
  const remote = await provider.getPayment(dataId).catch((err: unknown) => {
    if (isPaymentProviderError(err) && err.kind === 'not_found') return null;
    throw err;
  });
  if (!remote) {
    log.info('webhook ignored: unknown payment');
    return { processed: false };
  }
  const reference = remote.externalReference ?? '';
  const purchase = isUuid(reference) ? await ctx.models.Purchase.findOne({ where: { id: reference, provider: 'mercadopago' } }) : null;
  if (purchase?.checkoutId) return done(await recordProviderPayment(ctx, purchase, remote, { actor: ACTOR }));
  const renewal = isUuid(reference) ? await ctx.models.Renewal.findOne({ where: { id: reference, provider: 'mercadopago' } }) : null;
  if (renewal) return done(await recordRenewalCharge(ctx, renewal.id, remote, { actor: ACTOR }));
  log.info('webhook ignored: unknown payment');
  return { processed: false };
}
