import { Router } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import { FISCAL_MESSAGES, PAYMENT_MESSAGES as M, PAYMENT_METHODS, PURCHASE_STATUSES, pageQuerySchema, type PaymentMethod, type PaymentsStatus, type PurchaseStatus, pagination } from '@aabify/shared';
import { mixed, object, string } from 'yup';
import type { AppContext } from '../context.js';
import type { Purchase } from '../models/index.js';
import { authUser, requireAuth } from '../http/guards.js';
import { signedInActor } from '../audit/requestActor.js';
import { ApiError } from '../http/errors.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { isPaymentProviderError, providerErrorToApi } from './providers/index.js';
import { applyProviderPayment, syncPayment } from './paymentSynchronizer.js';
import { presentPixPayment, presentPurchase } from './presenter.js';
import { presentPaymentsState } from './providerStatePresenter.js';
import { ownedPaymentOrPurchasePayment, purchaseView, purchaseViewIncludes } from './access.js';

const listQuerySchema = pageQuerySchema.shape({
  status: mixed<PurchaseStatus>()
    .transform((v: unknown) => (v === '' ? undefined : v))
    .oneOf([...PURCHASE_STATUSES, undefined], 'Status inválido')
    .optional(),
  method: mixed<PaymentMethod>()
    .transform((v: unknown) => (v === '' ? undefined : v))
    .oneOf([...PAYMENT_METHODS, undefined], 'Forma de pagamento inválida')
    .optional(),
});
const refundSchema = object({ reason: string().trim().max(500, 'Motivo deve ter no máximo 500 caracteres').optional() });

const mapProviderErrors = (err: unknown): never => {
  throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
};

/**
 * Admin payment actions (docs/payments.md):
 * GET /api/admin/payments/status → the active provider and, in its error state, why (PaymentsStatus)
 * GET /api/admin/payments/purchases?status&method&page&limit → every purchase with its buyer, method, installments, renewal,
 *   billing details and NFS-e; `nfse.configured` says whether NFS-e are requested at all
 * POST /api/admin/payments/{id}/approve → approves a sandbox charge (also an expired or cancelled one)
 * POST /api/admin/payments/{id}/sync → reads the payment back from its provider
 * POST /api/admin/payments/{id}/refund {reason?} → refunds at the provider, whatever the method (a card refund
 *   goes back to the card, a PIX to the payer's account); the unspent plan is taken back
 * {id} is a payment id or a purchase id (its latest payment).
 */
export function createAdminPaymentsRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(requireAuth(ctx, { admin: true }), rateLimit(ctx.rateLimits.limiter('admin-payments', { points: 300, windowMs: 60_000 })));

  /** Which provider is active, and why payments are unavailable when they are (the admin banner). */
  router.get('/status', async (_req, res) => {
    const body: PaymentsStatus = presentPaymentsState(await ctx.payments.state(), await ctx.payments.routes());
    res.json(body);
  });

  router.get('/purchases', validate(listQuerySchema, 'query'), async (req, res) => {
    const { page, limit, status, method } = inputOf(req, listQuerySchema);
    const where: WhereOptions<Purchase> = {
      ...(status ? { status: { [Op.eq]: status } } : {}),
      ...(method ? { method: { [Op.eq]: method } } : {}),
    };
    const { rows, count } = await ctx.models.Purchase.findAndCountAll({
      where,
      include: [{ model: ctx.models.User, as: 'user', attributes: ['id', 'email'], paranoid: false }, ...purchaseViewIncludes(ctx)],
      distinct: true,
      order: [['createdAt', 'DESC'], ['id', 'ASC']],
      limit,
      offset: (page - 1) * limit,
    });
    const nfseConfigured = await ctx.fiscal.configured();
    res.json({
      success: true,
      purchases: rows.map((p) => ({ ...presentPurchase(p), user: p.user ? { id: p.user.id, email: p.user.email } : null })),
      pagination: pagination(count, page, limit),
      // Whether approved purchases get an NFS-e: the screen says so when they do not.
      nfse: { configured: nfseConfigured, message: nfseConfigured ? FISCAL_MESSAGES.nfseConfigured : FISCAL_MESSAGES.nfseNotConfigured },
    });
  });

  router.post('/:id/approve', async (req, res) => {
    const admin = authUser(req);
    const payment = await ownedPaymentOrPurchasePayment(ctx, req.params.id, admin);
    // Sandbox approvals exist only while the sandbox is the provider (nothing configures Mercado Pago).
    if ((await ctx.payments.mode()) !== 'sandbox' || payment.provider !== 'sandbox' || !payment.providerPaymentId) {
      throw ApiError.forbidden(M.sandboxOnly, 'SANDBOX_ONLY');
    }
    if (payment.status === 'refunded') throw ApiError.conflict(M.notPending, 'PAYMENT_NOT_PENDING');
    const remote = await ctx.payments.sandbox.approve(payment.providerPaymentId, { allowLate: true }).catch(mapProviderErrors);
    const result = await applyProviderPayment(ctx, payment.id, remote, { actor: `admin:${admin.id}`, reason: 'Aprovado por administrador (sandbox)', audit: signedInActor(req) });
    const purchase = await purchaseView(ctx, payment.purchaseId);
    res.json({
      success: true,
      message: M.approved,
      changed: result.changed,
      payment: presentPixPayment(result.payment),
      purchase: purchase ? presentPurchase(purchase) : null,
    });
  });

  router.post('/:id/sync', async (req, res) => {
    const admin = authUser(req);
    const payment = await ownedPaymentOrPurchasePayment(ctx, req.params.id, admin);
    const result = await syncPayment(ctx, payment.id, { actor: `admin:${admin.id}` }).catch(mapProviderErrors);
    res.json({ success: true, changed: result.changed, payment: presentPixPayment(result.payment) });
  });

  router.post('/:id/refund', validate(refundSchema), async (req, res) => {
    const admin = authUser(req);
    const { reason } = inputOf(req, refundSchema);
    const payment = await ownedPaymentOrPurchasePayment(ctx, req.params.id, admin);
    if (payment.status !== 'approved' || !payment.providerPaymentId) throw ApiError.conflict(M.cannotRefund, 'PAYMENT_NOT_APPROVED');
    const provider = await ctx.payments.provider(payment.provider).catch(mapProviderErrors);
    const remote = await provider.refundPayment(payment.providerPaymentId, `aabify-refund-${payment.id}`).catch(mapProviderErrors);
    const text = reason || 'Reembolso feito por administrador';
    const result = await applyProviderPayment(ctx, payment.id, remote, { actor: `admin:${admin.id}`, reason: text, audit: signedInActor(req) });
    const purchase = await purchaseView(ctx, payment.purchaseId);
    res.json({
      success: true,
      message: M.refunded,
      changed: result.changed,
      payment: presentPixPayment(result.payment),
      purchase: purchase ? presentPurchase(purchase) : null,
    });
  });

  return router;
}
