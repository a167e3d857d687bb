import { Router, type RequestHandler } from 'express';
import { boolean, object, string } from 'yup';
import { PAYMENT_MESSAGES as M, isUuid, UUID_PATTERN } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import { authUser, requireAuth } from '../http/guards.js';
import { ApiError } from '../http/errors.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { presentUser } from '../accounts/userPresenter.js';
import { presentPixPayment, presentPurchase } from './presenter.js';
import { createPixPayment } from './pixPaymentCreator.js';
import { applyProviderPayment } from './paymentSynchronizer.js';
import { approvePurchase } from './purchaseApprover.js';
import { findPlan } from '../plans/planStore.js';
import { signedInActor } from '../audit/requestActor.js';
import { auditChanges, recordAudit } from '../audit/recorder.js';
import { auditPurchaseTransition } from './purchaseTransition.js';
import { userAuditTarget, userAuditView } from '../accounts/userPresenter.js';

const userPlanSchema = object({
  userId: string().required('userId é obrigatório').matches(UUID_PATTERN, 'userId inválido'),
  planId: string().required('planId é obrigatório').matches(UUID_PATTERN, 'planId inválido'),
});
const simulateSchema = userPlanSchema.shape({ autoApprove: boolean().default(false) });

async function findUser(ctx: AppContext, id: unknown): Promise<User> {
  const user = typeof id === 'string' && isUuid(id) ? await ctx.models.User.findByPk(id) : null;
  if (!user) throw ApiError.notFound('Usuário não encontrado', 'USER_NOT_FOUND');
  return user;
}

/**
 * Debug calls of the client: only in sandbox mode — nothing configures
 * Mercado Pago — and only for admins (docs/decisions.md, "Payments"); once Mercado Pago is configured,
 * usable or in its error state, they answer 404 as if absent.
 * GET /user-state/{id} · POST /test-apply-plan {userId, planId} ·
 * POST /simulate-purchase {userId, planId, autoApprove} · POST /reset-user/{id}
 */
export function createDebugRouter(ctx: AppContext): Router {
  const router = Router();
  const sandboxOnly: RequestHandler = async (req, _res, next) => {
    if ((await ctx.payments.mode()) !== 'sandbox') {
      return next(new ApiError(404, 'ROUTE_NOT_FOUND', `Rota não encontrada: ${req.method} ${req.baseUrl}${req.path}`));
    }
    next();
  };
  router.use(sandboxOnly, requireAuth(ctx, { admin: true }), rateLimit(ctx.rateLimits.limiter('debug', { points: 120, windowMs: 60_000 })));

  router.get('/user-state/:id', async (req, res) => {
    const user = await findUser(ctx, req.params.id);
    const purchases = await ctx.models.Purchase.findAll({
      where: { userId: user.id },
      include: [{ model: ctx.models.PurchaseTransition, as: 'transitions' }],
      order: [['createdAt', 'DESC']],
      limit: 20,
    });
    res.json({ success: true, user: presentUser(user), purchases: purchases.map((p) => presentPurchase(p)) });
  });

  /** Applies a plan at once, recorded as an approved manual purchase (so it can be refunded and audited). */
  router.post('/test-apply-plan', validate(userPlanSchema), async (req, res) => {
    const { userId, planId } = inputOf(req, userPlanSchema);
    const admin = authUser(req);
    const user = await findUser(ctx, userId);
    const plan = await findPlan(ctx, planId);
    const purchase = await ctx.sequelize.transaction(async (transaction) => {
      const created = await ctx.models.Purchase.create(
        { userId: user.id, planId: plan.id, planSnapshot: plan.snapshot(), amountCents: 0, currency: plan.currency, provider: 'manual', notes: 'debug: test-apply-plan' },
        { transaction },
      );
      await ctx.models.PurchaseTransition.create(
        { purchaseId: created.id, fromStatus: null, toStatus: 'pending', reason: 'Compra manual (debug)', actor: `admin:${admin.id}` },
        { transaction },
      );
      const approved = await approvePurchase(ctx, created.id, { transaction, actor: `admin:${admin.id}`, reason: 'Plano aplicado (debug)' });
      if (approved.purchase) await auditPurchaseTransition(ctx, signedInActor(req), approved.purchase, transaction, { debug: 'test-apply-plan' });
      return created;
    });
    await purchase.reload();
    await user.reload();
    res.json({ success: true, user: presentUser(user), purchase: presentPurchase(purchase) });
  });

  router.post('/simulate-purchase', validate(simulateSchema), async (req, res) => {
    const { userId, planId, autoApprove } = inputOf(req, simulateSchema);
    const admin = authUser(req);
    const user = await findUser(ctx, userId);
    let { payment, purchase } = await createPixPayment(ctx, user, planId);
    if (autoApprove && payment.providerPaymentId) {
      const remote = await ctx.payments.sandbox.approve(payment.providerPaymentId, { allowLate: true });
      payment = (await applyProviderPayment(ctx, payment.id, remote, { actor: `admin:${admin.id}`, reason: 'Compra simulada aprovada (debug)', audit: signedInActor(req) })).payment;
      purchase = (await ctx.models.Purchase.findByPk(purchase.id)) ?? purchase;
    }
    await user.reload();
    res.json({ success: true, message: autoApprove ? M.approved : M.pixCreated, user: presentUser(user), payment: presentPixPayment(payment), purchase: presentPurchase(purchase, { paymentId: payment.id }) });
  });

  /** Back to no plan: credits, type and subscription cleared. Purchases and their history stay. */
  router.post('/reset-user/:id', async (req, res) => {
    const user = await ctx.sequelize.transaction(async (transaction) => {
      const found = await findUser(ctx, req.params.id);
      const locked = await ctx.models.User.findByPk(found.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
      if (!locked) throw ApiError.notFound('Usuário não encontrado', 'USER_NOT_FOUND');
      const before = userAuditView(locked);
      await locked.update(
        {
          userType: null,
          credits: 0,
          currentPlanId: null,
          currentPurchaseId: null,
          planActivatedAt: null,
          subscriptionPlanId: null,
          subscriptionStartsAt: null,
          subscriptionExpiresAt: null,
        },
        { transaction },
      );
      await recordAudit(ctx, { action: 'user.updated', actor: signedInActor(req), target: userAuditTarget(locked), ...auditChanges(before, userAuditView(locked)), details: { debug: 'reset-user' } }, { transaction });
      return locked;
    });
    ctx.logger.info({ userId: user.id, admin: authUser(req).id }, 'debug: user plan reset');
    res.json({ success: true, message: 'Usuário redefinido', user: presentUser(user) });
  });

  return router;
}
