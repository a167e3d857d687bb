/**
 * The `accounts.requireVerifiedEmail` guard: with the setting on, a customer whose address is
 * not confirmed cannot buy or convert (403 EMAIL_NOT_VERIFIED); admins always pass. Goes after
 * requireAuth:  router.post('/convert', auth, requireVerifiedEmail(ctx), …)
 */
import type { RequestHandler } from 'express';
import { EMAIL_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser } from './guards.js';
import { ApiError } from './errors.js';

/** 403 EMAIL_NOT_VERIFIED, pointing at the call that sends a new confirmation link. */
export function emailNotVerifiedError(message: string = EMAIL_MESSAGES.emailNotVerified): ApiError {
  return new ApiError(403, 'EMAIL_NOT_VERIFIED', message, { details: { resend: '/api/auth/resend-verification' } });
}

export function requireVerifiedEmail(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const user = authUser(req);
    if (user.isAdmin() || user.emailVerifiedAt || !(await ctx.settings.get('accounts.requireVerifiedEmail'))) return next();
    throw emailNotVerifiedError();
  };
}
