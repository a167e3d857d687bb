import { Router, type Request } from 'express';
import type { Transaction } from 'sequelize';
import {
  ACCOUNT_MESSAGES,
  EMAIL_MESSAGES,
  forgotPasswordSchema,
  normalizeEmail,
  resetLinkStatusSchema,
  resetPasswordSchema,
  verifyEmailSchema,
  SECURITY_MESSAGES,
  isTwoFactorChallenge,
  type EmailStatusResponse,
  type ForgotPasswordResponse,
  type SignInResponse,
  type MessageResponse,
  type ResetLinkStatusResponse,
  type VerifyEmailResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth, signedInAs } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { clientAddress, clientKey, rateLimit } from '../http/rateLimit.js';
import { secretsInUrl } from '../http/requestLog.js';
import { verifyPassword } from './password.js';
import { reserveLoginAttempt } from './loginAttempts.js';
import type { User } from '../models/index.js';
import { setPassword } from './userCreator.js';
import { purgePreRegistrationAccess, type PurgedPreRegistrationAccess } from './preRegistrationPurger.js';
import { activeEmailLink, knownEmailLink, revokeEmailLinks, useEmailLink } from '../mail/links.js';
import { userAuditTarget } from './userPresenter.js';
import { passwordProven, requestOrigin } from './signIn.js';
import { requestActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

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
 * POST /forgot-password { email } → 200 { message, emailDelivery } — the same answer, at once, whether or not
 *      the account exists (the e-mail is prepared after the answer); 429 per address / per email
 * POST /reset-password { token, password, confirmPassword? } → 200 { message, token, expiresIn, user }
 *      (every older session ends; the user is signed in; on an account whose address was not
 *      confirmed yet, what was made on it before goes: accounts/preRegistrationPurger.ts);
 *      400 RESET_LINK_INVALID
 * GET /reset-password/:token/status → 200 { valid } — whether the link still works, asked when its
 *      page opens so a used or expired link is said before any typing; the link stays unused and
 *      the answer never names the account. Counted with the resets themselves (one budget).
 * POST /verify-email { token, password? | newPassword? } → 200 { message } signed in to the account;
 *      with its password or a new one, 200 { message, token, expiresIn, user }; 403
 *      VERIFY_SIGN_IN_REQUIRED { details: { email } } otherwise (the link stays unused);
 *      400 WRONG_PASSWORD, VERIFY_LINK_INVALID
 * GET /email-status (signed in) → { emailVerified, verificationRequired }
 * POST /resend-verification (signed in) → 200 { message }; 503 EMAIL_DELIVERY_UNAVAILABLE without SMTP; 429 per user
 */
export function createAuthRecoveryRouter(ctx: AppContext): Router {
  const router = Router();
  const { models, sequelize } = ctx;
  const forgotPerAddress = ctx.rateLimits.limiter('forgot-password-address', { points: 20, windowMs: 15 * MINUTE });
  const forgotPerEmail = ctx.rateLimits.limiter('forgot-password-email', { points: 5, windowMs: 60 * MINUTE });
  const resendPerUser = ctx.rateLimits.limiter('resend-verification', { points: 5, windowMs: 60 * MINUTE });
  // Checking a link and using it draw on one budget: the check is no cheaper way to guess tokens.
  const resetPerAddress = ctx.rateLimits.limiter('reset-password', { points: 20, windowMs: 15 * MINUTE });

  router.post(
    '/forgot-password',
    rateLimit(forgotPerAddress, clientKey, EMAIL_MESSAGES.tooManyEmailRequests),
    rateLimit(forgotPerEmail, (req) => requestedEmail(req) ?? clientKey(req), EMAIL_MESSAGES.tooManyEmailRequests),
    validate(forgotPasswordSchema),
    (req, res) => {
      const { email } = inputOf(req, forgotPasswordSchema);
      // Without SMTP no link can arrive: say so, and how to recover. The request still goes to the
      // outbox, where the admins see it (operator warning PASSWORD_RESET_UNDELIVERED).
      const emailDelivery = Boolean(ctx.config.mail.smtpUrl);
      const body: ForgotPasswordResponse = { message: emailDelivery ? EMAIL_MESSAGES.forgotPasswordSent : EMAIL_MESSAGES.forgotPasswordNoDelivery, emailDelivery };
      res.json(body);
      // After the answer, so its timing says nothing about whether the account exists.
      setImmediate(() => void ctx.mail.passwordReset(email));
    },
  );

  /**
   * The holder of an e-mailed link sets the account's password (a reset, or a confirmation by
   * someone who does not know the password). On an account whose address was not confirmed yet,
   * whatever was made on it before goes: whoever registered the address may not be its owner
   * (a confirmed account keeps its CI tokens). The address is confirmed too: the link reached it.
   */
  async function setPasswordByLink(req: Request, user: User, password: string, transaction: Transaction): Promise<PurgedPreRegistrationAccess | null> {
    const purged = user.emailVerifiedAt ? null : await purgePreRegistrationAccess(ctx, user.id, transaction);
    const actor = requestActor(req, user);
    if (!user.emailVerifiedAt) await recordAudit(ctx, { action: 'account.email_verified', actor, target: userAuditTarget(user) }, { transaction });
    await recordAudit(ctx, { action: 'account.password_reset', actor, target: userAuditTarget(user), details: purged ? { removedBeforeConfirmation: purged } : null }, { transaction });
    user.emailVerifiedAt ??= new Date();
    user.lastLogin = new Date();
    // setPassword raises tokenVersion: every session made before this ends.
    await setPassword(user, password, { transaction });
    await revokeEmailLinks(models, user.id, 'password_reset', transaction);
    await revokeEmailLinks(models, user.id, 'email_verification', transaction);
    await ctx.mail.passwordChanged(user, { transaction });
    return purged;
  }

  /** After setPasswordByLink's transaction committed. */
  async function afterPasswordSetByLink(user: User, purged: PurgedPreRegistrationAccess | null, how: string): Promise<void> {
    // Open sockets and event streams made with the old password (or a removed API token) end
    // too, on every process.
    await ctx.liveAccess.accessChanged(user.id);
    // The mailbox's owner proved it: the account's sign-in slowdown starts afresh.
    await Promise.all([ctx.auth.limiters.loginPerAccount.reset(user.email), ctx.auth.limiters.loginAccountWait.reset(user.email)]);
    ctx.logger.info({ userId: user.id }, how);
    if (purged) ctx.logger.info({ userId: user.id, ...purged }, 'unconfirmed account recovered: access made before the confirmation removed');
  }

  const signIn = (user: User, req: Request): Promise<SignInResponse> => passwordProven(ctx, user, requestOrigin(req));

  router.get(
    '/reset-password/:token/status',
    secretsInUrl({ params: ['token'] }),
    rateLimit(resetPerAddress),
    validate(resetLinkStatusSchema, 'params'),
    async (req, res) => {
      const { token } = inputOf(req, resetLinkStatusSchema);
      const link = await activeEmailLink(models, token, 'password_reset');
      // As the reset itself decides: a link sent to an address the account no longer has is dead.
      const owner = link ? await models.User.findByPk(link.userId, { attributes: ['id', 'email'] }) : null;
      const body: ResetLinkStatusResponse = { valid: Boolean(link && owner && owner.email === link.email) };
      res.json(body);
    },
  );

  router.post(
    '/reset-password',
    rateLimit(resetPerAddress),
    validate(resetPasswordSchema),
    async (req, res) => {
      const { token, password } = inputOf(req, resetPasswordSchema);
      const { user, purged } = await sequelize.transaction(async (transaction) => {
        const link = await useEmailLink(sequelize, token, 'password_reset', transaction);
        if (!link) throw resetLinkInvalid();
        const found = await models.User.findByPk(link.userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
        if (!found || found.email !== link.email) throw resetLinkInvalid();
        if (!found.isActive) throw ApiError.unauthorized(ACCOUNT_MESSAGES.accountDisabled, 'ACCOUNT_DISABLED');
        return { user: found, purged: await setPasswordByLink(req, found, password, transaction) };
      });
      await afterPasswordSetByLink(user, purged, 'password reset by e-mail link');
      // With two-factor sign-in the mailbox alone does not sign in: the code is asked next.
      const answer = await signIn(user, req);
      const body: SignInResponse & MessageResponse = { ...answer, message: isTwoFactorChallenge(answer) ? SECURITY_MESSAGES.passwordResetTwoFactor : EMAIL_MESSAGES.passwordReset };
      res.json(body);
    },
  );

  /**
   * The confirmation link proves the mailbox, not the account: whoever registered the address
   * chose its password, and may not be the mailbox's owner (account pre-hijacking). So the token
   * alone confirms only for a request signed in to the account; otherwise its holder proves the
   * account with its password, or sets a new one, which ends the registrant's access as a reset
   * does. Asked for neither, the answer names the address and leaves the link unused.
   */
  router.post(
    '/verify-email',
    rateLimit(ctx.rateLimits.limiter('verify-email', { points: 30, windowMs: 15 * MINUTE })),
    validate(verifyEmailSchema),
    async (req, res) => {
      const { token, password, newPassword } = inputOf(req, verifyEmailSchema);
      const pending = await activeEmailLink(models, token, 'email_verification');
      const owner = pending ? await models.User.findByPk(pending.userId) : null;
      if (!pending || !owner || owner.email !== pending.email) {
        // A second click on a link that already worked is not an error for the person clicking.
        const known = await knownEmailLink(models, token, 'email_verification');
        const user = known?.usedAt ? await models.User.findByPk(known.userId) : null;
        if (!user?.emailVerifiedAt || user.email !== known?.email) throw verifyLinkInvalid();
        const body: VerifyEmailResponse = { message: EMAIL_MESSAGES.emailAlreadyVerified };
        res.json(body);
        return;
      }
      // 403, not 401: a browser signed in to another account must not take it as its session ending.
      if (!owner.isActive) throw new ApiError(403, 'ACCOUNT_DISABLED', ACCOUNT_MESSAGES.accountDisabled);
      if (owner.emailVerifiedAt) {
        // Confirmed meanwhile: nothing to prove, and a confirmation link never changes the
        // password of a confirmed account (that takes a reset link, valid for an hour).
        await revokeEmailLinks(models, owner.id, 'email_verification');
        const body: VerifyEmailResponse = { message: EMAIL_MESSAGES.emailAlreadyVerified };
        res.json(body);
        return;
      }

      if (newPassword !== undefined) {
        const { user, purged } = await sequelize.transaction(async (transaction) => {
          if (!(await useEmailLink(sequelize, token, 'email_verification', transaction))) throw verifyLinkInvalid();
          const found = await models.User.findByPk(owner.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
          if (!found || found.email !== pending.email) throw verifyLinkInvalid();
          return { user: found, purged: await setPasswordByLink(req, found, newPassword, transaction) };
        });
        await afterPasswordSetByLink(user, purged, 'address confirmed with a new password');
        const answer = await signIn(user, req);
        const body: VerifyEmailResponse = { ...answer, message: isTwoFactorChallenge(answer) ? SECURITY_MESSAGES.emailVerifiedTwoFactor : EMAIL_MESSAGES.emailVerifiedNewPassword };
        res.json(body);
        return;
      }

      let signsIn = false;
      if (password !== undefined) {
        // The sign-in's limits: the link does not make the password cheaper to guess.
        const attempt = await reserveLoginAttempt(ctx.auth.limiters, owner.email, clientAddress(req));
        if (attempt.refused) throw ApiError.tooManyRequests(attempt.retryAfter, ACCOUNT_MESSAGES.tooManyLoginAttempts);
        const ok = await verifyPassword(password, owner.passwordHash);
        await attempt.settle(ok);
        if (!ok) throw new ApiError(400, 'WRONG_PASSWORD', EMAIL_MESSAGES.verifyPasswordWrong, { fields: { password: EMAIL_MESSAGES.verifyPasswordWrong } });
        signsIn = true;
      } else if (!(await signedInAs(ctx, req, owner.id))) {
        throw new ApiError(403, 'VERIFY_SIGN_IN_REQUIRED', EMAIL_MESSAGES.verifySignInRequired, { details: { email: owner.email } });
      }

      const confirmed = await sequelize.transaction(async (transaction) => {
        if (!(await useEmailLink(sequelize, token, 'email_verification', transaction))) return null;
        const user = await models.User.findByPk(owner.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
        if (!user || user.email !== pending.email) return null;
        const actor = requestActor(req, user);
        if (!user.emailVerifiedAt) {
          user.emailVerifiedAt = new Date();
          await recordAudit(ctx, { action: 'account.email_verified', actor, target: userAuditTarget(user) }, { transaction });
        }
        if (signsIn) {
          user.lastLogin = new Date();
          await recordAudit(ctx, { action: 'auth.sign_in', actor, target: userAuditTarget(user), details: { how: 'verify-email' } }, { transaction });
        }
        await user.save({ transaction });
        return user;
      });
      if (!confirmed) throw verifyLinkInvalid();
      let body: VerifyEmailResponse = { message: EMAIL_MESSAGES.emailVerified };
      if (signsIn) {
        const answer = await signIn(confirmed, req);
        body = { ...answer, message: isTwoFactorChallenge(answer) ? SECURITY_MESSAGES.emailVerifiedTwoFactor : EMAIL_MESSAGES.emailVerifiedSignedIn };
      }
      res.json(body);
    },
  );

  router.get('/email-status', requireAuth(ctx, { token: 'account:read' }), async (req, res) => {
    const user = authUser(req);
    const required = !user.hasAdminRole() && (await ctx.settings.get('accounts.requireVerifiedEmail')) === true;
    const body: EmailStatusResponse = { emailVerified: Boolean(user.emailVerifiedAt), verificationRequired: required };
    res.json(body);
  });

  router.post(
    '/resend-verification',
    requireAuth(ctx),
    rateLimit(resendPerUser, clientKey, EMAIL_MESSAGES.tooManyEmailRequests),
    async (req, res) => {
      const user = authUser(req);
      // Never "sent" when it would only wait in the outbox: nobody would receive it.
      if (!user.emailVerifiedAt && ctx.mail.outbox.transport !== 'smtp') throw new ApiError(503, 'EMAIL_DELIVERY_UNAVAILABLE', EMAIL_MESSAGES.verificationNotDeliverable);
      if (!user.emailVerifiedAt) await ctx.mail.verification(user);
      const body: MessageResponse = { message: user.emailVerifiedAt ? EMAIL_MESSAGES.emailAlreadyVerified : EMAIL_MESSAGES.verificationSent };
      res.json(body);
    },
  );

  return router;
}
