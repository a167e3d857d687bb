import { Router } from 'express';
import { SECURITY_MESSAGES, type SessionListResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { findOwned } from '../http/ownership.js';
import { describeDevice } from './devices.js';
import { presentSession } from './sessionPresenter.js';
import { endSession, liveSessions } from './sessions.js';
import { userAuditTarget } from './userPresenter.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

/**
 * "Sessões ativas", mounted at /api/auth/sessions; a session's alone (API tokens are listed and
 * revoked at /auth/tokens).
 *
 * GET /        → { sessions: [...] } (the sessions that still hold, most recently used first)
 * DELETE /:id  → 204: that session ends on every process, its sockets and event streams close;
 *                another user's or an ended one: 404
 */
export function createSessionsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/', requireAuth(ctx), async (req, res) => {
    const user = authUser(req);
    const rows = await liveSessions(ctx, user);
    const body: SessionListResponse = { sessions: rows.map((r) => presentSession(r, req.auth!.session?.id)) };
    res.json(body);
  });

  router.delete('/:id', requireAuth(ctx), async (req, res) => {
    const user = authUser(req);
    const notFound = { adminBypass: false, notFoundMessage: SECURITY_MESSAGES.sessionNotFound, notFoundCode: 'SESSION_NOT_FOUND' };
    const row = await findOwned(ctx.models.Session, req.params.id, user, { ...notFound, where: { endedAt: null } });
    if (!(await endSession(ctx, user.id, row.id))) throw new Error('session row changed while ending it');
    await recordAudit(ctx, { action: 'auth.session_ended', actor: signedInActor(req), target: userAuditTarget(user), details: { sessionId: row.id, device: describeDevice(row.userAgent) } });
    // Its sockets and event streams close on every process.
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id, sessionId: row.id, current: row.id === req.auth!.session?.id }, 'session ended from the sessions list');
    res.status(204).end();
  });

  return router;
}
