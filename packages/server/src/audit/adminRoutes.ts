import { Router } from 'express';
import {
  AUDIT_EXPORT_TRUNCATED_HEADER,
  AUDIT_LIMITS,
  AUDIT_MESSAGES,
  adminAuditFilterSchema,
  adminAuditQuerySchema,
  pagination,
  type AuditEventDetail,
  type AuditEventListResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { adminGuard } from '../http/guards.js';
import type { Limiter } from '../http/rateLimiter.js';
import { inputOf, validate } from '../http/validate.js';
import { signedInActor } from './requestActor.js';
import { recordAudit } from './recorder.js';
import { auditWhere } from './query.js';
import { presentAuditDetail, presentAuditEvent } from './presenter.js';
import { auditCsvFileName, streamAuditCsv } from './csvExport.js';

/**
 * /api/admin/audit — the audit trail, read only (no route changes or deletes an event):
 *   GET / (page, limit = 25, actor, action, targetType, target, address, from, to)
 *     → { events (newest first, without before/after), pagination }
 *   GET /export (the same filters) → CSV of the filtered set, newest first, at most
 *     AUDIT_LIMITS.exportMaxRows rows (header x-audit-export-truncated: true when older ones
 *     were left out); the export is itself recorded
 *   GET /{id} → the event with before, after and details; 404 AUDIT_EVENT_NOT_FOUND
 */
export function createAdminAuditRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));
  const { AuditEvent } = ctx.models;

  router.get('/', validate(adminAuditQuerySchema, 'query'), async (req, res) => {
    const q = inputOf(req, adminAuditQuerySchema);
    const { rows, count } = await AuditEvent.findAndCountAll({
      where: auditWhere(q),
      order: [['id', 'DESC']],
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const body: AuditEventListResponse = { events: rows.map(presentAuditEvent), pagination: pagination(count, q.page, q.limit) };
    res.json(body);
  });

  router.get(['/export', '/export.csv'], validate(adminAuditFilterSchema, 'query'), async (req, res) => {
    const filter = inputOf(req, adminAuditFilterSchema);
    const where = auditWhere(filter);
    const max = AUDIT_LIMITS.exportMaxRows;
    // Recorded first: who took a copy of the trail is part of it, even if the download breaks off.
    await recordAudit(ctx, { action: 'audit.exported', actor: signedInActor(req), target: { type: 'audit', id: null }, details: { filter } });
    const matching = await AuditEvent.count({ where });
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${auditCsvFileName()}"`);
    res.setHeader('cache-control', 'no-store');
    if (matching > max) res.setHeader(AUDIT_EXPORT_TRUNCATED_HEADER, 'true');
    await streamAuditCsv(ctx.models, res, where, max);
  });

  router.get('/:id', async (req, res) => {
    const id = String(req.params.id);
    const event = /^\d{1,18}$/.test(id) ? await AuditEvent.findByPk(id) : null;
    if (!event) throw ApiError.notFound(AUDIT_MESSAGES.eventNotFound, 'AUDIT_EVENT_NOT_FOUND');
    const body: AuditEventDetail = presentAuditDetail(event);
    res.json(body);
  });

  return router;
}
