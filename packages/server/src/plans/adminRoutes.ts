import { Router } from 'express';
import {
  PLAN_MESSAGES as M,
  planAnalyticsQuerySchema,
  planBulkDeleteSchema,
  planBulkUpdateSchema,
  planDuplicateSchema,
  planFilterQuerySchema,
  planInputSchema,
  planPerformanceQuerySchema,
  planReorderSchema,
  planSetPopularSchema,
  type PlanListResponse,
  pagination,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/guards.js';
import { signedInActor } from '../audit/requestActor.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { presentPlan } from './presenter.js';
import {
  bulkDeletePlans,
  bulkUpdatePlans,
  createPlan,
  deletePlan,
  duplicatePlan,
  findPlan,
  listPlans,
  reorderPlans,
  setPlanPopular,
  togglePlanStatus,
  updatePlan,
} from './planStore.js';
import { planAnalytics, planPerformance, planStats } from './planAnalytics.js';
import { planCsvFileName, plansToCsv } from './planCsv.js';

/**
 * Admin plan management, every call admin only:
 * GET / (filter query) → { plans, pagination }; GET /export → CSV; GET /analytics?period;
 * GET /performance?planIds&period; PATCH /reorder; PATCH /bulk-update; DELETE /bulk-delete;
 * POST /; GET|PUT|PATCH|DELETE /{id}; PATCH /{id}/toggle-status; PATCH /{id}/set-popular;
 * POST /{id}/duplicate; GET /{id}/stats.
 */
export function createAdminPlansRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(requireAuth(ctx, { admin: true }), rateLimit(ctx.rateLimits.limiter('admin-plans', { points: 600, windowMs: 60_000 })));

  router.get('/', validate(planFilterQuerySchema, 'query'), async (req, res) => {
    const query = inputOf(req, planFilterQuerySchema);
    const { plans, total } = await listPlans(ctx, query);
    const body: PlanListResponse = { plans: plans.map(presentPlan), pagination: pagination(total, query.page, query.limit) };
    res.json({ success: true, ...body });
  });

  router.get(['/export', '/export.csv'], validate(planFilterQuerySchema, 'query'), async (req, res) => {
    const { plans } = await listPlans(ctx, inputOf(req, planFilterQuerySchema), { all: true });
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${planCsvFileName()}"`);
    res.setHeader('cache-control', 'no-store');
    res.send(plansToCsv(plans));
  });

  router.get('/analytics', validate(planAnalyticsQuerySchema, 'query'), async (req, res) => {
    const { period } = inputOf(req, planAnalyticsQuerySchema);
    res.json({ success: true, analytics: await planAnalytics(ctx, period) });
  });

  router.get('/performance', validate(planPerformanceQuerySchema, 'query'), async (req, res) => {
    const { planIds, period } = inputOf(req, planPerformanceQuerySchema);
    res.json({ success: true, period, performance: await planPerformance(ctx, planIds, period) });
  });

  router.patch('/reorder', validate(planReorderSchema), async (req, res) => {
    const { planOrders } = inputOf(req, planReorderSchema);
    const updatedCount = await reorderPlans(ctx, signedInActor(req), planOrders);
    res.json({ success: true, message: M.reordered, updatedCount });
  });

  router.patch('/bulk-update', validate(planBulkUpdateSchema), async (req, res) => {
    const { planIds, updates } = inputOf(req, planBulkUpdateSchema);
    const updatedCount = await bulkUpdatePlans(ctx, signedInActor(req), planIds, updates);
    res.json({ success: true, message: `${updatedCount} plano(s) atualizado(s) com sucesso!`, updatedCount });
  });

  router.delete('/bulk-delete', validate(planBulkDeleteSchema), async (req, res) => {
    const { planIds } = inputOf(req, planBulkDeleteSchema);
    const { deletedCount, deactivatedCount } = await bulkDeletePlans(ctx, signedInActor(req), planIds);
    const message =
      `${deletedCount} plano(s) excluído(s)` + (deactivatedCount ? `; ${deactivatedCount} com vendas desativado(s)` : '') + '.';
    res.json({ success: true, message, deletedCount, deactivatedCount });
  });

  router.post('/', validate(planInputSchema), async (req, res) => {
    const plan = await createPlan(ctx, signedInActor(req), inputOf(req, planInputSchema));
    res.status(201).json({ success: true, message: M.created, plan: presentPlan(plan) });
  });

  router.get('/:id', async (req, res) => {
    res.json({ success: true, plan: presentPlan(await findPlan(ctx, req.params.id)) });
  });

  router.get('/:id/stats', async (req, res) => {
    const plan = await findPlan(ctx, req.params.id);
    res.json({ success: true, plan: presentPlan(plan), stats: await planStats(ctx, plan.id) });
  });

  router.put('/:id', async (req, res) => {
    const plan = await updatePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id), req.body);
    res.json({ success: true, message: M.updated, plan: presentPlan(plan) });
  });
  router.patch('/:id', async (req, res) => {
    const plan = await updatePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id), req.body);
    res.json({ success: true, message: M.updated, plan: presentPlan(plan) });
  });

  router.delete('/:id', async (req, res) => {
    const outcome = await deletePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id));
    res.json({
      success: true,
      deleted: outcome === 'deleted',
      deactivated: outcome === 'deactivated',
      message: outcome === 'deleted' ? M.deleted : M.deactivatedHasSales,
    });
  });

  router.patch('/:id/toggle-status', async (req, res) => {
    const plan = await togglePlanStatus(ctx, signedInActor(req), await findPlan(ctx, req.params.id));
    res.json({ success: true, message: plan.isActive ? M.activated : M.deactivated, plan: presentPlan(plan) });
  });

  router.patch('/:id/set-popular', validate(planSetPopularSchema), async (req, res) => {
    const { popular } = inputOf(req, planSetPopularSchema);
    const plan = await setPlanPopular(ctx, signedInActor(req), await findPlan(ctx, req.params.id), popular);
    res.json({ success: true, message: plan.isPopular ? M.markedPopular : M.unmarkedPopular, plan: presentPlan(plan) });
  });

  router.post('/:id/duplicate', validate(planDuplicateSchema), async (req, res) => {
    const { newName, name } = inputOf(req, planDuplicateSchema);
    const copy = await duplicatePlan(ctx, signedInActor(req), await findPlan(ctx, req.params.id), newName ?? name);
    res.status(201).json({ success: true, message: M.duplicated, plan: presentPlan(copy) });
  });

  return router;
}
