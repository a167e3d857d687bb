import { Router } from 'express';
import { Op } from 'sequelize';
import {
  PLAN_ACCESS_REDIRECT,
  PLAN_MESSAGES,
  pageQuerySchema,
  planAccessMessage,
  planDuplicateSchema,
  planFilterQuerySchema,
  planInputSchema,
  type PlanListResponse,
  pagination,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { signedInActor } from '../audit/requestActor.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { presentPlan } from './presenter.js';
import { presentUser } from '../accounts/userPresenter.js';
import { chargeableCurrencies, createPlan, deletePlan, duplicatePlan, findPlan, listPlans, planFilterWhere, updatePlan } from './planStore.js';
import { planStats } from './planAnalytics.js';

/**
 * GET /api/plans/public → { success, plans } (active plans, no sign-in)
 * GET /api/plans → { plans, pagination } (users: active plans; admins: the filter query)
 * GET /api/plans/current, /can-convert, /usage-history → the signed-in user's plan
 * GET /api/plans/{id}; admin: POST /, PATCH /{id}, DELETE /{id}, GET /{id}/stats, POST /{id}/duplicate
 */
export function createPlansRouter(ctx: AppContext): Router {
  const router = Router();
  // Per verified user after auth, per address for /public: plan reads are cheap, but not free.
  const limiter = rateLimit(ctx.rateLimits.limiter('plans', { points: 300, windowMs: 60_000 }));
  const auth = requireAuth(ctx, { token: 'account:read' });
  const admin = requireAuth(ctx, { admin: true });

  router.get('/public', limiter, async (_req, res) => {
    const plans = await ctx.models.Plan.findAll({ where: planFilterWhere({}, { activeOnly: true, currencies: await chargeableCurrencies(ctx) }), order: [['displayOrder', 'ASC'], ['name', 'ASC']] });
    res.json({ success: true, plans: plans.map(presentPlan) });
  });

  router.get('/', auth, limiter, validate(planFilterQuerySchema, 'query'), async (req, res) => {
    const query = inputOf(req, planFilterQuerySchema);
    const admin = authUser(req).isAdmin();
    // Customers see only the plans they can buy: active, in a currency a provider charges.
    const { plans, total } = await listPlans(ctx, query, admin ? {} : { activeOnly: true, currencies: await chargeableCurrencies(ctx) });
    const body: PlanListResponse = { plans: plans.map(presentPlan), pagination: pagination(total, query.page, query.limit) };
    res.json(body);
  });

  router.get('/current', auth, limiter, async (req, res) => {
    const user = authUser(req);
    const plan = user.currentPlanId ? await ctx.models.Plan.findByPk(user.currentPlanId) : null;
    const json = presentUser(user);
    res.json({
      success: true,
      hasActivePlan: json.usageSummary.hasActivePlan,
      planAccess: json.usageSummary.planAccess,
      currentPlan: json.currentPlan,
      plan: plan ? presentPlan(plan) : null,
      credits: json.credits,
      subscription: json.subscription,
      usageSummary: json.usageSummary,
    });
  });

  router.get('/can-convert', auth, limiter, async (req, res) => {
    const user = authUser(req);
    const status = user.planAccess();
    const canConvert = status === 'active';
    res.json({
      canConvert,
      status,
      reason: canConvert ? null : status,
      message: canConvert ? 'Você pode converter arquivos.' : planAccessMessage(status),
      redirectTo: canConvert ? null : PLAN_ACCESS_REDIRECT,
      userType: user.userType,
      credits: user.credits,
      remainingCredits: user.credits,
      expiresAt: user.subscriptionExpiresAt ? user.subscriptionExpiresAt.toISOString() : null,
      remaining: user.hasAdminRole() || user.userType === 'subscription' ? 'unlimited' : user.credits,
    });
  });

  /** Plan events of the user: each purchase applied, refunded or closed, newest first. */
  router.get('/usage-history', auth, limiter, validate(pageQuerySchema, 'query'), async (req, res) => {
    const { page, limit } = inputOf(req, pageQuerySchema);
    const user = authUser(req);
    const { rows, count } = await ctx.models.PurchaseTransition.findAndCountAll({
      where: { toStatus: { [Op.in]: ['approved', 'refunded'] } },
      include: [{ model: ctx.models.Purchase, as: 'purchase', where: { userId: user.id }, required: true }],
      order: [['at', 'DESC'], ['id', 'DESC']],
      limit,
      offset: (page - 1) * limit,
    });
    res.json({
      history: rows.map((t) => {
        const purchase = t.purchase!;
        const grant = purchase.planGrant;
        return {
          id: String(t.id),
          type: t.toStatus === 'approved' ? 'plan_applied' : 'plan_refunded',
          at: t.at.toISOString(),
          reason: t.reason,
          purchaseId: purchase.id,
          planId: purchase.planId,
          planName: purchase.planSnapshot?.name ?? 'Plano Desconhecido',
          planType: purchase.planSnapshot?.type ?? null,
          creditsAdded: t.toStatus === 'approved' ? (grant?.creditsAdded ?? 0) : 0,
          creditsTakenBack: t.toStatus === 'refunded' ? (grant?.creditsTakenBack ?? 0) + (grant?.creditsHeldBack ?? 0) : 0,
          expiresAt: t.toStatus === 'approved' ? (grant?.newExpiresAt ?? null) : (grant?.subscriptionEndedAt ?? null),
          amount: purchase.amountCents / 100,
          amountCents: purchase.amountCents,
        };
      }),
      pagination: pagination(count, page, limit),
    });
  });

  router.post('/', admin, limiter, validate(planInputSchema), async (req, res) => {
    const plan = await createPlan(ctx, signedInActor(req), inputOf(req, planInputSchema));
    res.status(201).json({ success: true, message: PLAN_MESSAGES.created, plan: presentPlan(plan) });
  });

  router.get('/:id', auth, limiter, async (req, res) => {
    const plan = authUser(req).isAdmin() ? await findPlan(ctx, req.params.id) : await findPlan(ctx, req.params.id, { activeOnly: true, currencies: await chargeableCurrencies(ctx) });
    res.json({ success: true, plan: presentPlan(plan) });
  });

  router.patch('/:id', admin, limiter, async (req, res) => {
    const plan = await updatePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id), req.body);
    res.json({ success: true, message: PLAN_MESSAGES.updated, plan: presentPlan(plan) });
  });

  router.delete('/:id', admin, limiter, async (req, res) => {
    const outcome = await deletePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id));
    res.json({
      success: true,
      deleted: outcome === 'deleted',
      deactivated: outcome === 'deactivated',
      message: outcome === 'deleted' ? PLAN_MESSAGES.deleted : PLAN_MESSAGES.deactivatedHasSales,
    });
  });

  router.get('/:id/stats', admin, limiter, async (req, res) => {
    const plan = await findPlan(ctx, req.params.id);
    res.json({ success: true, plan: presentPlan(plan), stats: await planStats(ctx, plan.id) });
  });

  router.post('/:id/duplicate', admin, limiter, validate(planDuplicateSchema), async (req, res) => {
    const { name, newName } = inputOf(req, planDuplicateSchema);
    const copy = await duplicatePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id), name ?? newName);
    res.status(201).json({ success: true, message: PLAN_MESSAGES.duplicated, plan: presentPlan(copy) });
  });

  return router;
}
