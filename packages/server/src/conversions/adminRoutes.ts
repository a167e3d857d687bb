import { Router } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import { ADMIN_MESSAGES, adminConversionsQuerySchema, type AdminConversionListResponse, isUuid, pagination } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import type { Limiter } from '../http/rateLimiter.js';
import { inputOf, validate } from '../http/validate.js';
import { adminGuard } from '../http/guards.js';
import { likePattern } from '../http/listing.js';
import { ownerInclude, presentAdminConversions } from './adminConversionList.js';
import { cancelConversion } from './canceller.js';
import { conversionAuditTarget } from './access.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';


/**
 * /api/admin/conversions — every user's conversions:
 *   GET / (page, limit = 25, status, search over file name and owner email, userId)
 *     → { conversions (with user {id, email}), total, page, limit, totalPages, hasNextPage, hasPreviousPage, pagination }
 *   DELETE /{id} → { message }: a running one is cancelled first (its credit goes back), then
 *     its files and its record (logs, download links) are removed; both recorded in the audit trail.
 */
export function createAdminConversionsRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));

  router.get('/', validate(adminConversionsQuerySchema, 'query'), async (req, res) => {
    const q = inputOf(req, adminConversionsQuerySchema);
    const where: Record<string | symbol, unknown> = {};
    if (q.status && q.status !== 'all') where.status = { [Op.in]: q.status.split(',').map((s) => s.trim()) };
    if (q.userId) where.userId = q.userId;
    if (q.search) {
      const pattern = likePattern(q.search);
      where[Op.or] = [{ fileName: { [Op.iLike]: pattern } }, { '$user.email$': { [Op.iLike]: pattern } }];
    }
    const { rows, count } = await ctx.models.Conversion.findAndCountAll({
      where: where as WhereOptions<Conversion>,
      include: [ownerInclude(ctx)],
      order: [['createdAt', 'DESC'], ['id', 'DESC']],
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
      distinct: true,
    });
    const p = pagination(count, q.page, q.limit);
    const body: AdminConversionListResponse = {
      conversions: await presentAdminConversions(ctx, rows),
      total: count,
      page: q.page,
      limit: q.limit,
      totalPages: p.pages,
      hasNextPage: q.page < p.pages,
      hasPreviousPage: q.page > 1,
      pagination: p,
    };
    res.json(body);
  });

  router.delete('/:id', async (req, res) => {
    const id = String(req.params.id);
    const c = isUuid(id) ? await ctx.models.Conversion.findByPk(id) : null;
    if (!c) throw ApiError.notFound(ADMIN_MESSAGES.conversionNotFound, 'CONVERSION_NOT_FOUND');
    const actor = signedInActor(req);
    if (['pending', 'queued', 'processing'].includes(c.status)) {
      await cancelConversion(ctx, c.id, { audit: { actor, details: { deleting: true } } }).catch((err: unknown) => {
        if (!(err instanceof ApiError)) throw err;
      });
    }
    const fresh = await ctx.models.Conversion.findByPk(id);
    if (fresh) {
      await ctx.conversionFiles.deleteAll(fresh).catch((err: unknown) => ctx.logger.warn({ err, conversionId: fresh.id }, 'conversion files not deleted'));
      await ctx.sequelize.transaction(async (transaction) => {
        await fresh.destroy({ transaction });
        const before = { status: fresh.status, fileName: fresh.fileName, fileSize: fresh.fileSize, createdAt: fresh.createdAt };
        await recordAudit(ctx, { action: 'conversion.deleted', actor, target: conversionAuditTarget(fresh), accountId: fresh.userId, before }, { transaction });
      });
      ctx.queueBroadcaster.changed();
    }
    ctx.logger.info({ conversionId: id }, 'admin deleted conversion');
    res.json({ message: ADMIN_MESSAGES.conversionDeleted });
  });

  return router;
}
