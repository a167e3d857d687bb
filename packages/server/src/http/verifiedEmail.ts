/**
 * The `accounts.requireVerifiedEmail` guard: with the setting on, a customer whose address is
 * not confirmed cannot buy or convert (403 EMAIL_NOT_VERIFIED); admins always pass. Goes after
 * requireAuth:  router.post('/convert', auth, requireVerifiedEmail(ctx), …)
 */
import type { RequestHandler } from 'express';
import { EMAIL_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser } from './auth.js';
import { ApiError } from './errors.js';

export function requireVerifiedEmail(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const user = authUser(req);
    if (user.isAdmin() || user.emailVerifiedAt || !(await ctx.settings.get('accounts.requireVerifiedEmail'))) return next();
    throw new ApiError(403, 'EMAIL_NOT_VERIFIED', EMAIL_MESSAGES.emailNotVerified, { details: { resend: '/api/auth/resend-verification' } });
  };
}
