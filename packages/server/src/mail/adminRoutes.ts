import { Router } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import { EMAIL_MESSAGES, adminEmailsQuerySchema, type AdminEmailDetail, type AdminEmailJson, type AdminEmailListResponse, isUuid, pagination } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { EmailMessage } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { inputOf, validate } from '../http/validate.js';
import { adminGuard, adminRateLimiter } from '../http/guards.js';
import { likePattern } from '../http/listing.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';


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
 *   POST /{id}/resend → { message, email }: a failed message goes back to the queue (recorded in
 *     the audit trail); 409 EMAIL_NOT_RESENDABLE for one not failed, EMAIL_LINK_NOT_RESENDABLE
 *     for one whose single-use link was dropped with the failure
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

  router.post('/:id/resend', async (req, res) => {
    const id = String(req.params.id);
    const actor = signedInActor(req);
    const message = await ctx.sequelize.transaction(async (transaction) => {
      const found = isUuid(id) ? await ctx.models.EmailMessage.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE }) : null;
      if (!found) throw ApiError.notFound(EMAIL_MESSAGES.emailNotFound, 'EMAIL_NOT_FOUND');
      if (found.status !== 'failed') throw ApiError.conflict(EMAIL_MESSAGES.emailNotResendable, 'EMAIL_NOT_RESENDABLE');
      // A failed message's single-use link is gone (never kept past the failure): sent again, it would carry none.
      if (typeof found.data.linkExpiresAt === 'string') throw ApiError.conflict(EMAIL_MESSAGES.emailLinkNotResendable, 'EMAIL_LINK_NOT_RESENDABLE');
      await found.update({ status: 'queued', attempts: 0, lastError: null }, { transaction });
      await recordAudit(
        ctx,
        {
          action: 'email.resent',
          actor,
          target: { type: 'email', id: found.id, label: found.subject },
          accountId: found.userId,
          before: { status: 'failed' },
          after: { status: 'queued' },
          details: { to: found.to, kind: found.kind },
        },
        { transaction },
      );
      transaction.afterCommit(() => void outbox.schedule(found.id));
      return found;
    });
    ctx.logger.info({ emailId: message.id, actor: actor.user.id }, 'admin resent e-mail');
    res.json({ message: EMAIL_MESSAGES.emailResent, email: presentAdminEmail(message) });
  });

  return router;
}
