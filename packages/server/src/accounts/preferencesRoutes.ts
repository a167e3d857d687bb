import { Router } from 'express';
import { EMAIL_MESSAGES, accountPreferencesSchema, type ApiUser, type MessageResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { presentUser } from './userPresenter.js';

/**
 * PATCH /api/account/preferences { notifyConversions } → { message, user }
 * The signed-in user's e-mail preferences (the account menu's switch).
 */
export function createAccountPreferencesRouter(ctx: AppContext): Router {
  const router = Router();
  router.patch('/preferences', requireAuth(ctx), validate(accountPreferencesSchema), async (req, res) => {
    const user = authUser(req);
    const { notifyConversions } = inputOf(req, accountPreferencesSchema);
    await user.update({ notifyConversions });
    const body: MessageResponse & { user: ApiUser } = { message: EMAIL_MESSAGES.preferencesSaved, user: presentUser(user) };
    res.json(body);
  });
  return router;
}
