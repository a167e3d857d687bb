import { Router } from 'express';
import type { AppContext } from '../context.js';
import { isQueueReachable, isQueueRunning } from '../jobs/queue.js';

/**
 * GET /api/health, liveness: the process answers, reaches its database and runs its job queue;
 * 503 when degraded. The database is asked on the process's own LISTEN connection, not through
 * the application's pool: a burst of requests queued for the pool (100 uploads at once) must not
 * make a working process look dead to an orchestrator. Whether it can serve now is /api/ready's
 * question, asked through the pool.
 */
export function createHealthRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    let database = false;
    try {
      database = await ctx.notifier.ping();
      if (!database) ctx.logger.warn('health: the database connection is down (reconnecting)');
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

/**
 * GET /api/ready, for orchestrators and load balancers: 200 when the database, the file store
 * and the job queue answer (and, in worker roles, the queue is processing); 503 naming what
 * failed in `failed`. Liveness is /api/health. Anyone may ask, so it names no process (host,
 * pid): which instance answered is told only by the authenticated /metrics.
 */
export function createReadyRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const probe = async (name: string, fn: () => Promise<boolean>): Promise<[string, boolean]> => {
      try {
        return [name, await fn()];
      } catch (err) {
        ctx.logger.warn({ err, check: name }, 'ready: check failed');
        return [name, false];
      }
    };
    const checks = Object.fromEntries(
      await Promise.all([
        probe('database', async () => (await ctx.sequelize.query('SELECT 1'), true)),
        // The store's own probe (local folder writable; S3: reachable, bucket present).
        probe('storage', async () => (await ctx.storage.check(), true)),
        probe('queue', async () => (await isQueueReachable(ctx.queue)) && (ctx.config.role === 'web' || isQueueRunning(ctx.queue))),
      ]),
    ) as Record<'database' | 'storage' | 'queue', boolean>;
    const failed = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name);
    res.status(failed.length ? 503 : 200).json({ status: failed.length ? 'unavailable' : 'ready', role: ctx.config.role, checks, failed });
  });
  return router;
}
