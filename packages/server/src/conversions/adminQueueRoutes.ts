import { Router } from 'express';
import { ADMIN_MESSAGES, type AdminQueueClearResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import type { Limiter } from '../http/rateLimiter.js';
import { queueStats, systemStats } from '../admin/stats.js';
import { adminGuard } from '../http/guards.js';
import { cancelConversion } from './canceller.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

/**
 * /api/admin/queue — GET / → { waiting, active, completed, failed, cancelled, pending, maxConcurrent, averageProcessingTime }
 * POST /clear → { message, cancelledCount, creditsReturned, queue }: every waiting conversion is
 * cancelled through the conversion service (its job removed, its reserved credit given back);
 * running ones finish. Each cancellation and the clearing are recorded in the audit trail.
 */
export function createAdminQueueRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));

  router.get('/', async (_req, res) => {
    res.json(await queueStats(ctx));
  });

  router.post('/clear', async (req, res) => {
    const actor = signedInActor(req);
    const waiting = await ctx.models.Conversion.findAll({ where: { status: 'queued' }, attributes: ['id', 'creditState'], order: [['queuedAt', 'ASC']] });
    let cancelledCount = 0;
    let creditsReturned = 0;
    for (const c of waiting) {
      try {
        const done = await cancelConversion(ctx, c.id, { audit: { actor, details: { queueCleared: true } } });
        cancelledCount++;
        if (c.creditState === 'reserved' && done.creditState === 'returned') creditsReturned++;
      } catch (err) {
        // Started or finished meanwhile: not in the queue any more.
        if (!(err instanceof ApiError)) throw err;
      }
    }
    await recordAudit(ctx, { action: 'queue.cleared', actor, target: { type: 'queue', id: null }, details: { cancelledCount, creditsReturned } });
    ctx.logger.info({ cancelledCount }, 'admin cleared the queue');
    const body: AdminQueueClearResponse = { message: ADMIN_MESSAGES.queueCleared(cancelledCount), cancelledCount, creditsReturned, queue: await queueStats(ctx) };
    res.json(body);
  });

  return router;
}

/** /api/admin/system — GET / → { uptime (s), memory {used, total, process}, cpu {usage, cores, loadAverage}, … } */
export function createAdminSystemRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));
  router.get('/', (_req, res) => {
    res.json(systemStats(ctx));
  });
  return router;
}
