import { Router } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import { EMAIL_MESSAGES, adminEmailsQuerySchema, type AdminEmailDetail, type AdminEmailJson, type AdminEmailListResponse, isUuid, pagination } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { EmailMessage } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { inputOf, validate } from '../http/validate.js';
import { adminGuard, adminRateLimiter } from '../http/guards.js';
import { likePattern } from '../http/listing.js';


export function presentAdminEmail(m: EmailMessage): AdminEmailJson {
  return {
    id: m.id,
    kind: m.kind,
    to: m.to,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    lastError: m.lastError,
    userId: m.userId,
    createdAt: m.createdAt.toISOString(),
    sentAt: m.sentAt ? m.sentAt.toISOString() : null,
  };
}

/**
 * /api/admin/emails — the outbox (Admin › E-mails):
 *   GET / (page, limit = 25, status = queued|sent|failed|all, search over recipient and subject)
 *     → { emails, pagination, transport, linkBase, publicUrlSet }
 *   GET /{id} → the message with its HTML and text as sent, single-use links hidden
 */
export function createAdminEmailsRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(adminGuard(ctx, adminRateLimiter(ctx)));
  const { outbox } = ctx.mail;

  router.get('/', validate(adminEmailsQuerySchema, 'query'), async (req, res) => {
    const q = inputOf(req, adminEmailsQuerySchema);
    const where: Record<string | symbol, unknown> = {};
    if (q.status && q.status !== 'all') where.status = q.status;
    if (q.search) {
      const pattern = likePattern(q.search);
      where[Op.or] = [{ to: { [Op.iLike]: pattern } }, { subject: { [Op.iLike]: pattern } }];
    }
    const { rows, count } = await ctx.models.EmailMessage.findAndCountAll({
      where: where as WhereOptions<EmailMessage>,
      attributes: { exclude: ['data', 'secret'] },
      order: [['createdAt', 'DESC'], ['id', 'DESC']],
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const body: AdminEmailListResponse = {
      emails: rows.map(presentAdminEmail),
      pagination: pagination(count, q.page, q.limit),
      transport: outbox.transport,
      linkBase: outbox.linkBase(),
      publicUrlSet: Boolean(ctx.config.publicUrl),
    };
    res.json(body);
  });

  router.get('/:id', async (req, res) => {
    const id = String(req.params.id);
    const message = isUuid(id) ? await ctx.models.EmailMessage.findByPk(id) : null;
    if (!message) throw ApiError.notFound(EMAIL_MESSAGES.emailNotFound, 'EMAIL_NOT_FOUND');
    const rendered = outbox.render(message, 'admin');
    const body: AdminEmailDetail = { ...presentAdminEmail(message), html: rendered.html, text: rendered.text };
    res.json(body);
  });

  return router;
}
