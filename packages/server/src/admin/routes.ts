import { Router } from 'express';
import type { AppContext } from '../context.js';
import { createAdminConfigRouter } from '../settings/adminRoutes.js';
import { createAdminConversionsRouter } from '../conversions/adminRoutes.js';
import { createAdminDashboardRouter } from './dashboardRoutes.js';
import { adminRateLimiter } from '../http/guards.js';
import { createAdminQueueRouter, createAdminSystemRouter } from '../conversions/adminQueueRoutes.js';
import { createAdminsRouter, createAdminUsersRouter } from '../accounts/adminRoutes.js';
import { createAdminAuditRouter } from '../audit/adminRoutes.js';
import { createAdminLegalRouter } from '../legal/adminRoutes.js';

/**
 * /api/admin — "Admin: dashboard, users, conversions, queue,
 * system", "Admin: settings" and the audit trail. Every route answers 403 to non-admins (adminGuard in each
 * sub-router). /admin/plans is the payments routes' own sub-router, mounted beside this one.
 */
export function createAdminRouter(ctx: AppContext): Router {
  const router = Router();
  const limiter = adminRateLimiter(ctx);
  router.use('/dashboard', createAdminDashboardRouter(ctx, limiter));
  router.use('/users', createAdminUsersRouter(ctx, limiter));
  router.use('/admins', createAdminsRouter(ctx, limiter));
  router.use('/conversions', createAdminConversionsRouter(ctx, limiter));
  router.use('/queue', createAdminQueueRouter(ctx, limiter));
  router.use('/system', createAdminSystemRouter(ctx, limiter));
  router.use('/config', createAdminConfigRouter(ctx, limiter));
  router.use('/audit', createAdminAuditRouter(ctx, limiter));
  router.use('/legal', createAdminLegalRouter(ctx, limiter));
  return router;
}
