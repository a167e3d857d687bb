import { Router, type RequestHandler } from 'express';
import {
  PAYMENT_MESSAGES as M,
  PIX_EXPIRATION_MINUTES,
  PIX_POLLING,
  checkoutSchema,
  pageQuerySchema,
  type CheckoutResponse,
  type CreatePixResponse,
  type PaymentConfigResponse,
  type PixPollingStatusResponse,
  type PixStatusResponse,
  pagination,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Payment, Purchase } from '../models/index.js';
import { authUser, requireAuth, requireVerifiedEmail } from '../http/guards.js';
import { signedInActor } from '../audit/requestActor.js';
import { ApiError } from '../http/errors.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { isPaymentProviderError, isRefusedChange, providerErrorToApi } from './providers/index.js';
import { createPixPayment } from './pixPaymentCreator.js';
import { applyProviderPayment, cancelPaymentLocally, claimProviderRead, claimRowRead, syncPayment } from './paymentSynchronizer.js';
import { presentPixPayment, presentPurchase, presentPurchaseStatus, presentRenewal } from './presenter.js';
import { latestPayment, ownedPayment, ownedPaymentOrPurchasePayment, ownedPurchase, ownedRenewal, purchaseView, purchaseViewIncludes } from './access.js';
import { mercadoPagoWebhook } from './webhookRoutes.js';
import { stripeWebhook } from './stripeWebhookRoutes.js';
import { createHostedCheckout } from './checkoutCreator.js';
import { syncCheckout } from './checkoutSynchronizer.js';
import { cancelRenewal } from './renewalCanceller.js';
import { createSandboxCheckoutRouter, simulateRenewalChargeHandlers } from './sandboxRoutes.js';
import { publicRoutes } from './routeView.js';

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
  // The sandbox's payments change only through our own calls: nothing to read.
  if (payment.status !== 'pending' || !payment.providerPaymentId || payment.provider === 'sandbox') return payment;
  if (!(await claimProviderRead(ctx, payment))) return payment;
  try {
    return (await syncPayment(ctx, payment.id, { actor: 'poll' })).payment;
  } catch (err) {
    ctx.logger.warn({ err, paymentId: payment.id }, 'payment status could not be read from the provider');
    return payment;
  }
}

/**
 * A pending hosted-checkout purchase (or a renewal's first purchase) with nothing under way:
 * its checkout is read back from the provider when the last read is old enough, so the return
 * page learns of a payment even when its notification is late or lost.
 */
async function refreshCheckout(ctx: AppContext, purchase: Purchase): Promise<void> {
  if (purchase.status !== 'pending' || !purchase.checkoutId || purchase.provider === 'sandbox' || purchase.provider === 'manual') return;
  if (!(await claimRowRead(ctx, 'purchase', purchase.id))) return;
  try {
    await syncCheckout(ctx, purchase.id, { actor: 'poll' });
  } catch (err) {
    ctx.logger.warn({ err, purchaseId: purchase.id }, 'checkout could not be read back from the provider');
  }
}

const mapProviderErrors = (err: unknown): never => {
  throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
};

/** Our address as the payer's browser knows it: PUBLIC_URL, or this request's origin (Express reads the proxy's headers only from trusted proxies). */
function baseUrlOf(ctx: AppContext, req: { protocol: string; get(name: string): string | undefined }): string {
  return ctx.config.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

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
      routes: publicRoutes(await ctx.payments.routes()),
    };
    res.json(body);
  });

  const webhookLimit = rateLimit(ctx.rateLimits.limiter('payment-webhook', { points: 600, windowMs: 60_000 }));
  router.post('/webhook', webhookLimit, mercadoPagoWebhook(ctx));
  router.post('/stripe/webhook', webhookLimit, stripeWebhook(ctx));

  router.post('/create-pix/:planId', ...createPixHandlers(ctx));

  router.post(
    '/checkout/:planId',
    session,
    rateLimit(ctx.rateLimits.limiter('purchase-create', { points: 20, windowMs: 10 * 60_000 })),
    requireVerifiedEmail(ctx),
    validate(checkoutSchema),
    async (req, res) => {
      const { renew } = inputOf(req, checkoutSchema);
      const planId = typeof req.params.planId === 'string' ? req.params.planId : '';
      const created = await createHostedCheckout(ctx, authUser(req), planId, { renew, baseUrl: baseUrlOf(ctx, req) });
      const view = (await purchaseView(ctx, created.purchase.id)) ?? created.purchase;
      const body: CheckoutResponse = {
        success: true,
        message: renew ? M.renewalCreated : M.checkoutCreated,
        checkoutUrl: created.checkoutUrl,
        purchase: presentPurchase(view),
        renewal: view.renewal ? presentRenewal(view.renewal) : null,
      };
      res.status(201).json(body);
    },
  );

  router.use('/sandbox', createSandboxCheckoutRouter(ctx));
  router.post('/renewals/:id/simulate-charge', ...simulateRenewalChargeHandlers(ctx));

  router.get('/renewals', auth, reads, async (req, res) => {
    const renewals = await ctx.models.Renewal.findAll({ where: { userId: authUser(req).id }, order: [['createdAt', 'DESC']], limit: 50 });
    res.json({ success: true, renewals: renewals.map(presentRenewal) });
  });

  router.post('/renewals/:id/cancel', session, reads, async (req, res) => {
    const user = authUser(req);
    const renewal = await ownedRenewal(ctx, req.params.id, user);
    const admin = user.isAdmin() && user.id !== renewal.userId;
    // An admin stopping a customer's renewal is an admin action: recorded in the audit trail.
    const after = await cancelRenewal(ctx, renewal, {
      actor: `${admin ? 'admin' : 'user'}:${user.id}`,
      reason: admin ? 'Cancelada por administrador' : 'Cancelada pelo cliente',
      audit: admin ? signedInActor(req) : undefined,
    });
    res.json({ success: true, message: M.renewalCancelled, renewal: presentRenewal(after) });
  });

  router.get('/pix-polling-status/:id', auth, reads, async (req, res) => {
    const payment = await refreshPending(ctx, await ownedPayment(ctx, req.params.id, authUser(req)));
    const expired = payment.isExpired();
    const body: PixPollingStatusResponse = {
      success: true,
      paymentId: payment.id,
      status: payment.status,
      isExpired: expired,
      expiresAt: payment.expiresAt?.toISOString() ?? null,
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
      include: purchaseViewIncludes(ctx),
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
    res.json({ success: true, purchase: presentPurchase(purchase, { transitions }) });
  });

  router.get('/status/:purchaseId', auth, reads, async (req, res) => {
    let purchase = await ownedPurchase(ctx, req.params.purchaseId, authUser(req));
    let latest = await latestPayment(ctx, purchase.id);
    if (purchase.status === 'pending') {
      if (latest?.status === 'pending') await refreshPending(ctx, latest);
      else await refreshCheckout(ctx, purchase);
      purchase = (await purchaseView(ctx, purchase.id)) ?? purchase;
      latest = await latestPayment(ctx, purchase.id);
    }
    res.json(presentPurchaseStatus(purchase, latest));
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
    const purchase = await purchaseView(ctx, payment.purchaseId);
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
