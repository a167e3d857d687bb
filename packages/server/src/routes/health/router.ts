import { Router } from 'express';
import type { AppContext } from '../../context.js';
import { isQueueRunning } from '../../jobs/queue.js';

/** GET /api/health: database reachable, job queue running, version. 503 when degraded. */
export function createHealthRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    let database = false;
    try {
      await ctx.sequelize.query('SELECT 1');
      database = true;
    } catch (err) {
      ctx.logger.warn({ err }, 'health: database unreachable');
    }
    const queue = isQueueRunning(ctx.queue);
    // A web-only process runs no queue of its own; its health does not depend on one.
    const queueRequired = ctx.config.role !== 'web';
    const ok = database && (queue || !queueRequired);
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'degraded',
      version: ctx.version,
      role: ctx.config.role,
      uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
      checks: { database, queue },
    });
  });
  return router;
}
