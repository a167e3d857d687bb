import { Router } from 'express';
import {
  EMAIL_MESSAGES,
  emailChangeConfirmSchema,
  emailChangeSchema,
  profileSchema,
  type ApiUser,
  type MessageResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth, requireReauth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { clientKey, rateLimit } from '../http/rateLimit.js';
import { requestActor, signedInActor } from '../audit/requestActor.js';
import { confirmEmailChange, requestEmailChange } from './emailChanger.js';
import { presentUser } from './userPresenter.js';

const MINUTE = 60_000;

/**
 * Conta › Perfil, mounted at /api/account (docs/accounts.md "Perfil"):
 *   PATCH /profile { name } → { message, user } — blank or absent: no name
 *   POST /email-change { newEmail } → { message } — a session that recently proved the password
 *        (403 REAUTH_REQUIRED otherwise); a link to the new address, the old one told; 400
 *        EMAIL_UNCHANGED, 503 EMAIL_DELIVERY_UNAVAILABLE without SMTP; 429 per account
 *   POST /email-change/confirm { token } → { message, email } — the link's holder, signed in or
 *        not: the account takes the address; 400 EMAIL_CHANGE_LINK_INVALID, 409 EMAIL_TAKEN
 */
export function createProfileRouter(ctx: AppContext): Router {
  const router = Router();
  const changePerUser = ctx.rateLimits.limiter('email-change-user', { points: 5, windowMs: 60 * MINUTE });
  const confirmPerAddress = ctx.rateLimits.limiter('email-change-confirm', { points: 20, windowMs: 15 * MINUTE });

  router.patch('/profile', requireAuth(ctx), validate(profileSchema), async (req, res) => {
    const user = authUser(req);
    await user.update({ name: inputOf(req, profileSchema).name ?? null });
    const body: MessageResponse & { user: ApiUser } = { message: EMAIL_MESSAGES.profileSaved, user: presentUser(user) };
    res.json(body);
  });

  router.post('/email-change', requireAuth(ctx), requireReauth, rateLimit(changePerUser, clientKey, EMAIL_MESSAGES.tooManyEmailRequests), validate(emailChangeSchema), async (req, res) => {
    const { newEmail } = inputOf(req, emailChangeSchema);
    await requestEmailChange(ctx, signedInActor(req), authUser(req), newEmail);
    const body: MessageResponse = { message: EMAIL_MESSAGES.emailChangeSent(newEmail) };
    res.json(body);
  });

  router.post('/email-change/confirm', rateLimit(confirmPerAddress), validate(emailChangeConfirmSchema), async (req, res) => {
    const user = await confirmEmailChange(ctx, (owner) => requestActor(req, owner), inputOf(req, emailChangeConfirmSchema).token);
    const body: MessageResponse & { email: string } = { message: EMAIL_MESSAGES.emailChanged(user.email), email: user.email };
    res.json(body);
  });

  return router;
}
