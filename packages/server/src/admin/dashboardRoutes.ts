import { Router } from 'express';
import { ADMIN_LIMITS, type AdminDashboardStats, type OperatorWarningsResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Limiter } from '../http/rateLimiter.js';
import { dashboardFigures } from './stats.js';
import { adminGuard } from '../http/guards.js';
import { ownerInclude, presentAdminConversions } from '../conversions/adminConversionList.js';
import { operatorWarnings } from './operatorWarnings.js';

/**
 * GET /api/admin/dashboard → users, conversions, revenue, purchases, queue, system, 5 recent conversions, charts.
 * GET /api/admin/dashboard/warnings → { warnings }: what stops the shop, each with what to do (operatorWarnings.ts).
 */
export function createAdminDashboardRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));
  router.get('/', async (_req, res) => {
    const figures = await dashboardFigures(ctx);
    const recent = await ctx.models.Conversion.findAll({
      include: [ownerInclude(ctx)],
      order: [['createdAt', 'DESC'], ['id', 'DESC']],
      limit: ADMIN_LIMITS.recentConversions,
    });
    const body: AdminDashboardStats = { ...figures, recentConversions: await presentAdminConversions(ctx, recent) };
    res.json(body);
  });
  router.get('/warnings', async (_req, res) => {
    const body: OperatorWarningsResponse = { warnings: await operatorWarnings(ctx) };
    res.json(body);
  });
  return router;
}
