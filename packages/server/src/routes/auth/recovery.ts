import { Router, type Request } from 'express';
import {
  ACCOUNT_MESSAGES,
  EMAIL_MESSAGES,
  forgotPasswordSchema,
  normalizeEmail,
  resetPasswordSchema,
  verifyEmailSchema,
  type AuthResponse,
  type EmailStatusResponse,
  type MessageResponse,
} from '@aabify/shared';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { authUser, requireAuth } from '../../http/auth.js';
import { inputOf, validate } from '../../http/validate.js';
import { clientKey, rateLimit } from '../../http/rateLimit.js';
import { setPassword } from '../../commands/userCreator.js';
import { purgePreRegistrationAccess } from '../../commands/preRegistrationPurger.js';
import { knownEmailLink, revokeEmailLinks, useEmailLink } from '../../mail/links.js';
import { presentUser } from '../../presenters/user.js';

const MINUTE = 60_000;

/** The address a forgot-password request names, as the limiter's key (before validation). */
function requestedEmail(req: Request): string | undefined {
  const email: unknown = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() ? `forgot:${normalizeEmail(email)}` : undefined;
}

const resetLinkInvalid = () =>
  new ApiError(400, 'RESET_LINK_INVALID', EMAIL_MESSAGES.resetLinkInvalid, { fields: { token: EMAIL_MESSAGES.resetLinkInvalid } });
const verifyLinkInvalid = () =>
  new ApiError(400, 'VERIFY_LINK_INVALID', EMAIL_MESSAGES.verifyLinkInvalid, { fields: { token: EMAIL_MESSAGES.verifyLinkInvalid } });

/**
 * Password recovery and address confirmation, mounted at /api/auth beside the auth router.
 *
 * POST /forgot-password { email } → 200 { message } — the same answer, at once, whether or not
 *      the account exists (the e-mail is prepared after the answer); 429 per address / per email
 * POST /reset-password { token, password, confirmPassword? } → 200 { message, token, expiresIn, user }
 *      (every older session ends; the user is signed in; on an account whose address was not
 *      confirmed yet, what was made on it before goes: commands/preRegistrationPurger.ts);
 *      400 RESET_LINK_INVALID
 * POST /verify-email { token } → 200 { message }; 400 VERIFY_LINK_INVALID
 * GET /email-status (signed in) → { emailVerified, verificationRequired }
 * POST /resend-verification (signed in) → 200 { message }; 429 per user
 */
export function createAuthRecoveryRouter(ctx: AppContext): Router {
  const router = Router();
  const { models, sequelize } = ctx;
  const forgotPerAddress = ctx.rateLimits.limiter('forgot-password-address', { points: 20, windowMs: 15 * MINUTE });
  const forgotPerEmail = ctx.rateLimits.limiter('forgot-password-email', { points: 5, windowMs: 60 * MINUTE });
  const resendPerUser = ctx.rateLimits.limiter('resend-verification', { points: 5, windowMs: 60 * MINUTE });

  router.post(
    '/forgot-password',
    rateLimit(forgotPerAddress, clientKey, EMAIL_MESSAGES.tooManyEmailRequests),
    rateLimit(forgotPerEmail, (req) => requestedEmail(req) ?? clientKey(req), EMAIL_MESSAGES.tooManyEmailRequests),
    validate(forgotPasswordSchema),
    (req, res) => {
      const { email } = inputOf(req, forgotPasswordSchema);
      const body: MessageResponse = { message: EMAIL_MESSAGES.forgotPasswordSent };
      res.json(body);
      // After the answer, so its timing says nothing about whether the account exists.
      setImmediate(() => void ctx.mail.passwordReset(email));
    },
  );

  router.post(
    '/reset-password',
    rateLimit(ctx.rateLimits.limiter('reset-password', { points: 20, windowMs: 15 * MINUTE })),
    validate(resetPasswordSchema),
    async (req, res) => {
      const { token, password } = inputOf(req, resetPasswordSchema);
      const { user, purged } = await sequelize.transaction(async (transaction) => {
        const link = await useEmailLink(sequelize, token, 'password_reset', transaction);
        if (!link) throw resetLinkInvalid();
        const found = await models.User.findByPk(link.userId, { transaction, lock: transaction.LOCK.UPDATE });
        if (!found || found.email !== link.email) throw resetLinkInvalid();
        if (!found.isActive) throw ApiError.unauthorized(ACCOUNT_MESSAGES.accountDisabled, 'ACCOUNT_DISABLED');
        // Not confirmed until now: the account may have been registered by someone else, who
        // must not keep what they made on it (a confirmed account keeps its CI tokens).
        const purgedAccess = found.emailVerifiedAt ? null : await purgePreRegistrationAccess(ctx, found.id, transaction);
        // The link reached the address, so it is confirmed too.
        found.emailVerifiedAt ??= new Date();
        found.lastLogin = new Date();
        // setPassword raises tokenVersion: every session made before this ends.
        await setPassword(found, password, { transaction });
        await revokeEmailLinks(models, found.id, 'password_reset', transaction);
        await ctx.mail.passwordChanged(found, { transaction });
        return { user: found, purged: purgedAccess };
      });
      // Open sockets and event streams made with the old password (or a removed API token) end
      // too, on every process.
      await ctx.liveAccess?.accessChanged(user.id);
      // The mailbox's owner proved it: the account's sign-in slowdown starts afresh.
      await Promise.all([ctx.auth.limiters.loginPerAccount.reset(user.email), ctx.auth.limiters.loginAccountWait.reset(user.email)]);
      ctx.logger.info({ userId: user.id }, 'password reset by e-mail link');
      if (purged) ctx.logger.info({ userId: user.id, ...purged }, 'unconfirmed account recovered: access made before the confirmation removed');
      const body: AuthResponse & MessageResponse = {
        message: EMAIL_MESSAGES.passwordReset,
        token: ctx.auth.issueToken(user),
        expiresIn: ctx.auth.sessionTtlSeconds,
        user: presentUser(user),
      };
      res.json(body);
    },
  );

  router.post(
    '/verify-email',
    rateLimit(ctx.rateLimits.limiter('verify-email', { points: 30, windowMs: 15 * MINUTE })),
    validate(verifyEmailSchema),
    async (req, res) => {
      const { token } = inputOf(req, verifyEmailSchema);
      const verified = await sequelize.transaction(async (transaction) => {
        const link = await useEmailLink(sequelize, token, 'email_verification', transaction);
        if (!link) return false;
        const user = await models.User.findByPk(link.userId, { transaction, lock: transaction.LOCK.UPDATE });
        if (!user || user.email !== link.email) return false;
        if (!user.emailVerifiedAt) await user.update({ emailVerifiedAt: new Date() }, { transaction });
        return true;
      });
      if (!verified) {
        // A second click on a link that already worked is not an error for the person clicking.
        const known = await knownEmailLink(models, token, 'email_verification');
        const owner = known?.usedAt ? await models.User.findByPk(known.userId) : null;
        if (!owner?.emailVerifiedAt || owner.email !== known?.email) throw verifyLinkInvalid();
        const body: MessageResponse = { message: EMAIL_MESSAGES.emailAlreadyVerified };
        res.json(body);
        return;
      }
      const body: MessageResponse = { message: EMAIL_MESSAGES.emailVerified };
      res.json(body);
    },
  );

  router.get('/email-status', requireAuth(ctx), async (req, res) => {
    const user = authUser(req);
    const required = !user.isAdmin() && (await ctx.settings.get('accounts.requireVerifiedEmail')) === true;
    const body: EmailStatusResponse = { emailVerified: Boolean(user.emailVerifiedAt), verificationRequired: required };
    res.json(body);
  });

  router.post(
    '/resend-verification',
    requireAuth(ctx),
    rateLimit(resendPerUser, clientKey, EMAIL_MESSAGES.tooManyEmailRequests),
    async (req, res) => {
      const user = authUser(req);
      if (!user.emailVerifiedAt) await ctx.mail.verification(user);
      const body: MessageResponse = { message: user.emailVerifiedAt ? EMAIL_MESSAGES.emailAlreadyVerified : EMAIL_MESSAGES.verificationSent };
      res.json(body);
    },
  );

  return router;
}
