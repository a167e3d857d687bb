import { Router } from 'express';
import { EMAIL_MESSAGES, accountPreferencesSchema, type ApiUser, type MessageResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { presentUser } from './userPresenter.js';

/**
 * PATCH /api/account/preferences { notifyConversions?, notifyConversionFailures?, notifyProductNews? } → { message, user }
 * The signed-in user's optional e-mails (Conta › Perfil); the mailer honours them
 * (mail/notices.ts `wantsEmail`). Security e-mails have no switch.
 */
export function createAccountPreferencesRouter(ctx: AppContext): Router {
  const router = Router();
  router.patch('/preferences', requireAuth(ctx), validate(accountPreferencesSchema), async (req, res) => {
    const user = authUser(req);
    const { notifyConversions, notifyConversionFailures, notifyProductNews } = inputOf(req, accountPreferencesSchema);
    await user.update({
      ...(notifyConversions !== undefined ? { notifyConversions } : {}),
      ...(notifyConversionFailures !== undefined ? { notifyConversionFailures } : {}),
      ...(notifyProductNews !== undefined ? { notifyProductNews } : {}),
    });
    const body: MessageResponse & { user: ApiUser } = { message: EMAIL_MESSAGES.preferencesSaved, user: presentUser(user) };
    res.json(body);
  });
  return router;
}
