import { Router } from 'express';
import { Op } from 'sequelize';
import { ACCOUNT_VISIBLE_ACTIONS, accountActivityQuerySchema, pagination, type AccountActivityResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { presentAccountActivity } from './presenter.js';

/**
 * GET /api/account/activity (page, limit) → { events, pagination }: the signed-in account's own
 * security log ("Atividade da conta"), newest first — sign-ins (and refused ones), sign-outs,
 * password and e-mail events, API tokens, keys, and what an administrator changed in its
 * access. Only the caller's own account: there is no parameter naming another.
 */
export function createAccountActivityRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/activity', requireAuth(ctx), validate(accountActivityQuerySchema, 'query'), async (req, res) => {
    const user = authUser(req);
    const q = inputOf(req, accountActivityQuerySchema);
    const { rows, count } = await ctx.models.AuditEvent.findAndCountAll({
      where: { accountId: user.id, action: { [Op.in]: [...ACCOUNT_VISIBLE_ACTIONS] } },
      order: [['id', 'DESC']],
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const body: AccountActivityResponse = { events: rows.map((e) => presentAccountActivity(e, user.id)), pagination: pagination(count, q.page, q.limit) };
    res.json(body);
  });
  return router;
}
