/**
 * POST /api/payments/webhook — Mercado Pago notifications (docs/payments-pix.md "Webhooks"). The signature is
 * checked against the webhook secret; then the payment is read back from Mercado Pago and
 * only that answer changes state (paymentSynchronizer). Replays change nothing. Answers 200
 * at once for what is not ours, and, with no secret configured, for a payment read back less
 * than 5 s ago; 500 when Mercado Pago could not be read, so it retries.
 */
import type { Request, RequestHandler } from 'express';
import { PAYMENT_MESSAGES as M } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { verifyMercadoPagoSignature } from './providers/index.js';
import { claimProviderRead, syncPayment } from './paymentSynchronizer.js';

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

    if (topic !== 'payment' || !dataId) {
      log.info('webhook ignored: not a payment notification');
      return res.status(200).json({ received: true, processed: false });
    }
    const payment = await ctx.models.Payment.findOne({ where: { provider: 'mercadopago', providerPaymentId: dataId } });
    if (!payment) {
      log.info('webhook ignored: unknown payment');
      return res.status(200).json({ received: true, processed: false });
    }
    // Unsigned, a notification proves nothing and only makes us read: anyone who knows a payment
    // id could spend the merchant's API quota. A read less than 5 s old answers it, as for polling.
    // A signed one is Mercado Pago's own and may tell of a change made a moment ago: read at once.
    if (!secret && !(await claimProviderRead(ctx, payment))) {
      log.info({ paymentId: payment.id }, 'webhook acknowledged: payment read back moments ago');
      return res.status(200).json({ received: true, processed: false });
    }
    try {
      const result = await syncPayment(ctx, payment.id, { actor: 'webhook:mercadopago' });
      log.info({ paymentId: payment.id, status: result.payment.status, changed: result.changed }, 'webhook processed');
      res.status(200).json({ received: true, processed: true, changed: result.changed });
    } catch (err) {
      log.error({ err, paymentId: payment.id }, 'webhook: payment could not be read back; Mercado Pago will retry');
      throw new ApiError(500, 'WEBHOOK_PROCESSING_FAILED', M.internal);
    }
  };
}
