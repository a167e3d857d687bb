import { Router, type RequestHandler } from 'express';
import {
  PAYMENT_MESSAGES as M,
  PIX_EXPIRATION_MINUTES,
  PIX_POLLING,
  pageQuerySchema,
  type CreatePixResponse,
  type PaymentConfigResponse,
  type PixPollingStatusResponse,
  type PixStatusResponse,
  pagination,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Payment } from '../models/index.js';
import { authUser, requireAuth, requireVerifiedEmail } from '../http/guards.js';
import { signedInActor } from '../audit/requestActor.js';
import { ApiError } from '../http/errors.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { isPaymentProviderError, isRefusedChange, providerErrorToApi } from './providers/index.js';
import { createPixPayment } from './pixPaymentCreator.js';
import { applyProviderPayment, cancelPaymentLocally, claimProviderRead, syncPayment } from './paymentSynchronizer.js';
import { presentPixPayment, presentPurchase, presentPurchaseStatus } from './presenter.js';
import { latestPaymentId, ownedPayment, ownedPaymentOrPurchasePayment, ownedPurchase } from './access.js';
import { mercadoPagoWebhook } from './webhookRoutes.js';

function statusMessage(payment: Payment): string {
  if (payment.isExpired()) return M.expired;
  switch (payment.status) {
    case 'approved':
      return M.approved;
    case 'rejected':
      return M.rejected;
    case 'cancelled':
      return M.cancelled;
    case 'refunded':
      return M.refunded;
    default:
      return M.pending;
  }
}

/** Slower polling as a charge ages (polling grows to 3 s, then 5 s). */
function recommendedInterval(payment: Payment, now = Date.now()): number {
  const age = now - payment.createdAt.getTime();
  if (age < 60_000) return PIX_POLLING.initialIntervalMs;
  if (age < 5 * 60_000) return PIX_POLLING.slowMaxMs;
  return PIX_POLLING.slowerMaxMs;
}

/**
 * Reads a pending payment back from its provider when the last read is old enough
 * (claimProviderRead), so the page learns of a payment even without webhooks. A provider
 * failure keeps the local state.
 */
async function refreshPending(ctx: AppContext, payment: Payment): Promise<Payment> {
  if (payment.status !== 'pending' || !payment.providerPaymentId || payment.provider !== 'mercadopago') return payment;
  if (!(await claimProviderRead(ctx, payment))) return payment;
  try {
    return (await syncPayment(ctx, payment.id, { actor: 'poll' })).payment;
  } catch (err) {
    ctx.logger.warn({ err, paymentId: payment.id }, 'payment status could not be read from the provider');
    return payment;
  }
}

const mapProviderErrors = (err: unknown): never => {
  throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
};

/**
 * GET /api/payments/config (public) · POST /webhook (Mercado Pago) ·
 * POST /create-pix/{planId} · GET /pix-polling-status/{id} · GET /pix-status/{id} ·
 * GET /purchases · GET /purchase/{id} · GET /status/{purchaseId} · PATCH /cancel/{id} ·
 * POST /simulate-approval/{id} (sandbox only)
 */
export function createPaymentsRouter(ctx: AppContext): Router {
  const router = Router();
  // Reading purchases is open to API tokens with `read`; buying and cancelling take a session.
  const auth = requireAuth(ctx, { token: 'account:read' });
  const session = requireAuth(ctx);
  const reads = rateLimit(ctx.rateLimits.limiter('payment-reads', { points: 240, windowMs: 60_000 }));

  router.get('/config', reads, async (_req, res) => {
    const state = await ctx.payments.state();
    const provider = state.provider;
    const body: PaymentConfigResponse = {
      provider,
      sandbox: provider === 'sandbox',
      available: state.available,
      unavailableMessage: state.available ? null : M.paymentsUnavailable,
      publicKey: provider === 'mercadopago' && state.available ? await ctx.payments.publicKey() : null,
      currency: 'BRL',
      pixExpirationMinutes: PIX_EXPIRATION_MINUTES,
      canSimulateApproval: provider === 'sandbox',
      polling: PIX_POLLING,
    };
    res.json(body);
  });

  router.post('/webhook', rateLimit(ctx.rateLimits.limiter('payment-webhook', { points: 600, windowMs: 60_000 })), mercadoPagoWebhook(ctx));

  router.post('/create-pix/:planId', ...createPixHandlers(ctx));

  router.get('/pix-polling-status/:id', auth, reads, async (req, res) => {
    const payment = await refreshPending(ctx, await ownedPayment(ctx, req.params.id, authUser(req)));
    const expired = payment.isExpired();
    const body: PixPollingStatusResponse = {
      success: true,
      paymentId: payment.id,
      status: payment.status,
      isExpired: expired,
      expiresAt: payment.expiresAt.toISOString(),
      shouldContinuePolling: payment.status === 'pending' && !expired,
      recommendedInterval: payment.status === 'pending' && !expired ? recommendedInterval(payment) : 0,
      message: statusMessage(payment),
    };
    res.json(body);
  });

  router.get('/pix-status/:id', auth, reads, async (req, res) => {
    const payment = await refreshPending(ctx, await ownedPayment(ctx, req.params.id, authUser(req)));
    const purchase = await ctx.models.Purchase.findByPk(payment.purchaseId);
    const body: PixStatusResponse = {
      success: true,
      payment: presentPixPayment(payment),
      purchase: { id: payment.purchaseId, status: purchase?.status ?? 'pending' },
      message: statusMessage(payment),
    };
    res.json(body);
  });

  router.get('/purchases', auth, reads, validate(pageQuerySchema, 'query'), async (req, res) => {
    const { page, limit } = inputOf(req, pageQuerySchema);
    const user = authUser(req);
    const { rows, count } = await ctx.models.Purchase.findAndCountAll({
      where: { userId: user.id },
      include: [{ model: ctx.models.Payment, as: 'payments', attributes: ['id', 'createdAt'] }],
      order: [['createdAt', 'DESC'], ['id', 'ASC']],
      limit,
      offset: (page - 1) * limit,
      distinct: true,
    });
    res.json({ success: true, purchases: rows.map((p) => presentPurchase(p)), pagination: pagination(count, page, limit) });
  });

  router.get('/purchase/:id', auth, reads, async (req, res) => {
    const purchase = await ownedPurchase(ctx, req.params.id, authUser(req));
    const transitions = await ctx.models.PurchaseTransition.findAll({ where: { purchaseId: purchase.id }, order: [['at', 'ASC'], ['id', 'ASC']] });
    res.json({ success: true, purchase: presentPurchase(purchase, { paymentId: await latestPaymentId(ctx, purchase.id), transitions }) });
  });

  router.get('/status/:purchaseId', auth, reads, async (req, res) => {
    let purchase = await ownedPurchase(ctx, req.params.purchaseId, authUser(req));
    const paymentId = await latestPaymentId(ctx, purchase.id);
    if (purchase.status === 'pending' && paymentId) {
      const payment = await ctx.models.Payment.findByPk(paymentId);
      if (payment) await refreshPending(ctx, payment);
      purchase = (await ctx.models.Purchase.findByPk(purchase.id)) ?? purchase;
    }
    res.json(presentPurchaseStatus(purchase, paymentId));
  });

  router.patch('/cancel/:id', session, reads, async (req, res) => {
    const user = authUser(req);
    const payment = await ownedPaymentOrPurchasePayment(ctx, req.params.id, user);
    if (payment.status !== 'pending') throw ApiError.conflict(M.cannotCancel, 'PAYMENT_NOT_PENDING');
    const provider = await ctx.payments.provider(payment.provider).catch(mapProviderErrors);
    const byAdmin = user.isAdmin() && user.id !== payment.userId;
    const reason = byAdmin ? 'Cancelado por administrador' : 'Cancelado pelo usuário';
    // An admin cancelling a customer's purchase is an admin action: recorded in the audit trail.
    const audit = byAdmin ? signedInActor(req) : undefined;
    let result;
    if (payment.providerPaymentId) {
      let remote;
      try {
        remote = await provider.cancelPayment(payment.providerPaymentId);
      } catch (err) {
        // Paid or closed meanwhile: whatever the provider says now is applied below.
        if (!isRefusedChange(err)) mapProviderErrors(err);
        remote = await provider.getPayment(payment.providerPaymentId).catch(mapProviderErrors);
      }
      result = await applyProviderPayment(ctx, payment.id, remote, { actor: `user:${user.id}`, reason: remote.status === 'cancelled' ? reason : undefined, audit: remote.status === 'cancelled' ? audit : undefined });
    } else {
      result = await cancelPaymentLocally(ctx, payment.id, { actor: `user:${user.id}`, reason, audit });
    }
    if (result.payment.status !== 'cancelled') throw ApiError.conflict(M.cannotCancel, 'PAYMENT_NOT_PENDING');
    res.json({ success: true, message: M.cancelledOk, payment: presentPixPayment(result.payment) });
  });

  router.post('/simulate-approval/:id', session, rateLimit(ctx.rateLimits.limiter('simulate-approval', { points: 30, windowMs: 60_000 })), async (req, res) => {
    const user = authUser(req);
    const payment = await ownedPaymentOrPurchasePayment(ctx, req.params.id, user);
    // Only while nothing configures a real provider: a configured one in its error state is no sandbox.
    if ((await ctx.payments.mode()) !== 'sandbox' || payment.provider !== 'sandbox' || !payment.providerPaymentId) {
      throw ApiError.forbidden(M.sandboxOnly, 'SANDBOX_ONLY');
    }
    if (payment.status === 'pending' && payment.isExpired()) throw new ApiError(410, 'PIX_EXPIRED', M.expired);
    if (payment.status !== 'pending' && payment.status !== 'approved') throw ApiError.conflict(M.notPending, 'PAYMENT_NOT_PENDING');
    const remote = await ctx.payments.sandbox.approve(payment.providerPaymentId).catch(mapProviderErrors);
    const result = await applyProviderPayment(ctx, payment.id, remote, { actor: `user:${user.id}`, reason: 'Aprovação simulada (sandbox)' });
    const purchase = await ctx.models.Purchase.findByPk(payment.purchaseId);
    res.json({
      success: true,
      message: M.simulatedApproval,
      changed: result.changed,
      payment: presentPixPayment(result.payment),
      purchase: purchase ? presentPurchase(purchase, { paymentId: payment.id }) : null,
    });
  });

  return router;
}

/** POST /create-pix/{planId}: also mounted at /api/create-pix/{planId}, the client's fallback path. */
export function createPixHandlers(ctx: AppContext): RequestHandler[] {
  const limiter = rateLimit(ctx.rateLimits.limiter('purchase-create', { points: 20, windowMs: 10 * 60_000 }));
  return [
    requireAuth(ctx),
    limiter,
    requireVerifiedEmail(ctx),
    async (req, res) => {
      const planId = typeof req.params.planId === 'string' ? req.params.planId : '';
      const { payment, purchase, reused } = await createPixPayment(ctx, authUser(req), planId);
      const body: CreatePixResponse = {
        success: true,
        message: reused ? M.pixReused : M.pixCreated,
        reused,
        payment: presentPixPayment(payment),
        purchase: presentPurchase(purchase, { paymentId: payment.id }),
      };
      res.status(reused ? 200 : 201).json(body);
    },
  ];
}
