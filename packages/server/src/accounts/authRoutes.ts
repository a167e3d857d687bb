import { Router, type Request } from 'express';
import {
  ACCOUNT_MESSAGES,
  EMAIL_MESSAGES,
  REAUTH_WINDOW_SECONDS,
  SECURITY_MESSAGES,
  changePasswordSchema,
  loginSchema,
  loginTwoFactorSchema,
  reauthSchema,
  registerSchema,
  type ApiUser,
  type ReauthResponse,
  type RegisterEmailTakenDetails,
  type RegisterResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth } from '../http/guards.js';
import { validate, inputOf } from '../http/validate.js';
import { clientAddress, rateLimit } from '../http/rateLimit.js';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './password.js';
import { reserveLoginAttempt } from './loginAttempts.js';
import { createUser, isEmailTaken, setPassword } from './userCreator.js';
import { endAllSessions, endSession, markSessionVerified } from './sessions.js';
import { presentSessionUser, userAuditTarget } from './userPresenter.js';
import { openSession, passwordProven, requestOrigin } from './signIn.js';
import { useSecondFactor } from './twoFactor.js';
import { createApiTokensRouter } from './apiTokenRoutes.js';
import { createSessionsRouter } from './sessionRoutes.js';
import { createTwoFactorRouter } from './twoFactorRoutes.js';
import { requestActor, signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';
import { recordLegalAcceptance } from '../legal/acceptance.js';

/**
 * POST /api/auth/register → 201 { token, expiresIn, user, message }; a taken address 409 EMAIL_TAKEN; where confirmed
 *   e-mail is required, 201 { message, email } for a new and a taken address alike (recoveryRoutes.ts has the e-mail routes)
 * POST /api/auth/login → { token, expiresIn, user }, or with two-factor sign-in
 *   { twoFactorRequired, challenge, expiresIn, message }; POST /api/auth/login/2fa { challenge, code } → the session
 * GET /api/auth/verify → { user }; GET /api/auth/me → the user
 * PATCH /api/auth/change-password → { message, token, expiresIn, user } (older sessions end)
 * POST /api/auth/logout → { message } (this session ends); POST /api/auth/logout-all → { message } (every session ends)
 * POST /api/auth/reauth { password | code } → { message, verifiedUntil } (sensitive changes allowed for 10 min)
 * /api/auth/sessions, /api/auth/2fa, /api/auth/tokens → sessionRoutes.ts, twoFactorRoutes.ts, apiTokenRoutes.ts
 * Sign-ins (and checked attempts that failed), sign-outs and password changes go to the audit trail.
 */
export function createAuthRouter(ctx: AppContext): Router {
  const router = Router();
  const { limiters } = ctx.auth;

  router.post(
    '/register',
    rateLimit(limiters.registerPerAddress),
    validate(registerSchema),
    async (req, res) => {
      const input = inputOf(req, registerSchema);
      // Where the operator requires a confirmed e-mail, sign-up gives no session, so a taken
      // address can answer exactly like a new one (no account enumeration; its owner is told by
      // e-mail). Otherwise the new customer is signed in at once and a taken address is said so
      // (docs/decisions.md), within the per-address sign-up limit.
      const hideTakenAddress = (await ctx.settings.get('accounts.requireVerifiedEmail')) === true;
      const user = await createUser(ctx, { email: input.email, password: input.password, name: input.name ?? null }).catch((err: unknown) => {
        if (isEmailTaken(err)) return null;
        throw err;
      });
      if (!user && !hideTakenAddress) throw registerEmailTaken();
      if (user) {
        await recordAudit(ctx, { action: 'account.registered', actor: requestActor(req, user), target: userAuditTarget(user), accountId: user.id });
        // The schema refused a sign-up without acceptTerms: the versions current now are the ones accepted.
        await recordLegalAcceptance(ctx, user, await ctx.legal.currentVersions(), requestOrigin(req), requestActor(req, user));
        await ctx.mail.welcome(user);
      } else {
        await ctx.mail.registrationAttempt(input.email);
      }
      if (!user || hideTakenAddress) {
        const body: RegisterResponse = { message: EMAIL_MESSAGES.registerCheckEmail, email: input.email };
        res.status(201).json(body);
        return;
      }
      const session = await openSession(ctx, user, requestOrigin(req));
      if (!session) throw new Error('new session id already in use');
      ctx.logger.info({ userId: user.id }, 'signed up');
      const body: RegisterResponse = { ...session, message: ACCOUNT_MESSAGES.registerSuccess };
      res.status(201).json(body);
    },
  );

  router.post('/login', validate(loginSchema), async (req, res) => {
    const { email, password } = inputOf(req, loginSchema);
    // Counted before the password check (accounts/loginAttempts.ts), with the same answer for
    // known and unknown emails.
    const attempt = await reserveLoginAttempt(limiters, email, clientAddress(req));
    if (attempt.refused) throw ApiError.tooManyRequests(attempt.retryAfter, ACCOUNT_MESSAGES.tooManyLoginAttempts);
    const user = await ctx.models.User.findOne({ where: { email } });
    const ok = user ? await verifyPassword(password, user.passwordHash) : await burnPasswordCheck(password);
    await attempt.settle(Boolean(user && ok));
    if (!user || !ok || !user.isActive) {
      const reason = !user ? 'unknown_email' : !ok ? 'wrong_password' : 'account_disabled';
      await recordFailedSignIn(ctx, req, user, email, reason);
      if (reason === 'account_disabled') throw ApiError.unauthorized(ACCOUNT_MESSAGES.accountDisabled, 'ACCOUNT_DISABLED');
      throw ApiError.unauthorized(ACCOUNT_MESSAGES.invalidCredentials, 'INVALID_CREDENTIALS');
    }
    // A hash of older parameters is upgraded: same password, so a bulk update (no hook) keeps
    // the sessions valid.
    if (needsRehash(user.passwordHash)) {
      const passwordHash = await hashPassword(password);
      await ctx.models.User.update({ passwordHash }, { where: { id: user.id } });
      user.set({ passwordHash });
    }
    if (!user.twoFactorEnabled()) await recordLogin(ctx, req, user);
    const answer = await passwordProven(ctx, user, requestOrigin(req), { alertNewDevice: true });
    ctx.logger.info({ userId: user.id, secondStep: 'twoFactorRequired' in answer }, 'password accepted at sign-in');
    res.json(answer);
  });

  /**
   * The second step: the challenge from /login and a code of the app (or a recovery code),
   * under the same limits as passwords. A challenge opens one session at most.
   */
  router.post('/login/2fa', validate(loginTwoFactorSchema), async (req, res) => {
    const { challenge, code } = inputOf(req, loginTwoFactorSchema);
    const invalid = () => ApiError.unauthorized(SECURITY_MESSAGES.twoFactorChallengeInvalid, 'TWO_FACTOR_CHALLENGE_INVALID');
    const opened = ctx.auth.openChallenge(challenge);
    if (!opened) throw invalid();
    const user = await ctx.models.User.findByPk(opened.userId);
    if (!user || user.tokenVersion !== opened.tokenVersion || (await ctx.models.Session.findByPk(opened.sessionId))) throw invalid();
    const attempt = await reserveLoginAttempt(limiters, user.email, clientAddress(req));
    if (attempt.refused) throw ApiError.tooManyRequests(attempt.retryAfter, ACCOUNT_MESSAGES.tooManyLoginAttempts);
    const factor = await useSecondFactor(ctx, user.id, code);
    await attempt.settle(factor !== null);
    if (!factor) {
      await recordFailedSignIn(ctx, req, user, user.email, 'wrong_code');
      ctx.logger.warn({ userId: user.id }, 'two-factor code refused at sign-in');
      throw new ApiError(401, 'TWO_FACTOR_CODE_INVALID', SECURITY_MESSAGES.twoFactorCodeInvalid, { fields: { code: SECURITY_MESSAGES.twoFactorCodeInvalid } });
    }
    if (!user.isActive) throw ApiError.unauthorized(ACCOUNT_MESSAGES.accountDisabled, 'ACCOUNT_DISABLED');
    await recordLogin(ctx, req, user, { secondFactor: factor });
    const session = await openSession(ctx, user, requestOrigin(req), { alertNewDevice: true, sessionId: opened.sessionId });
    if (!session) throw invalid();
    ctx.logger.info({ userId: user.id, secondFactor: factor }, 'signed in with two-factor');
    res.json(session);
  });

  const signedIn = requireAuth(ctx, { token: 'any', duringEnrolment: true, beforeLegalAcceptance: true });

  router.get('/verify', signedIn, (req, res) => {
    const body: { user: ApiUser } = { user: presentSessionUser(authUser(req), req.auth!.session) };
    res.json(body);
  });

  router.get('/me', signedIn, (req, res) => {
    res.json(presentSessionUser(authUser(req), req.auth!.session));
  });

  router.patch('/change-password', requireAuth(ctx), validate(changePasswordSchema), async (req, res) => {
    const user = authUser(req);
    const { currentPassword, newPassword } = inputOf(req, changePasswordSchema);
    // Counted before the check, forgotten when the current password was right.
    const limit = await limiters.passwordChangePerUser.consume(user.id);
    if (limit.limited) throw ApiError.tooManyRequests(limit.retryAfter);
    if (!(await verifyPassword(currentPassword, user.passwordHash))) {
      throw new ApiError(400, 'WRONG_PASSWORD', ACCOUNT_MESSAGES.currentPasswordWrong, {
        fields: { currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong },
      });
    }
    await limiters.passwordChangePerUser.reset(user.id);
    await ctx.sequelize.transaction(async (transaction) => {
      await setPassword(user, newPassword, { transaction });
      await recordAudit(ctx, { action: 'account.password_changed', actor: signedInActor(req), target: userAuditTarget(user) }, { transaction });
    });
    // Sockets and event streams opened with the ended sessions close too.
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id }, 'password changed');
    await ctx.mail.passwordChanged(user);
    const session = await openSession(ctx, user, requestOrigin(req));
    res.json({ message: ACCOUNT_MESSAGES.passwordChanged, ...session });
  });

  /**
   * Signs out of the session the request carries, on the server: its token stops working on
   * every process and its sockets and event streams close; the user's other sessions go on.
   */
  router.post('/logout', signedIn, async (req, res) => {
    const { user, credential } = req.auth!;
    if (credential.method !== 'jwt') throw new ApiError(400, 'LOGOUT_NEEDS_SESSION', ACCOUNT_MESSAGES.logoutNeedsSession);
    if (credential.sessionId) await endSession(ctx, user.id, credential.sessionId);
    else await endAllSessions(ctx, user.id);
    await recordAudit(ctx, { action: 'auth.sign_out', actor: signedInActor(req), target: userAuditTarget(user) });
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id, sessionId: credential.sessionId }, 'signed out');
    res.json({ message: ACCOUNT_MESSAGES.loggedOut });
  });

  /** Signs out of every session of the user (this one too); API tokens stay. */
  router.post('/logout-all', signedIn, async (req, res) => {
    const { user } = req.auth!;
    if (req.auth!.credential.method !== 'jwt') throw new ApiError(400, 'LOGOUT_NEEDS_SESSION', ACCOUNT_MESSAGES.logoutNeedsSession);
    await endAllSessions(ctx, user.id);
    await recordAudit(ctx, { action: 'auth.sign_out_all', actor: signedInActor(req), target: userAuditTarget(user) });
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id }, 'signed out everywhere');
    res.json({ message: ACCOUNT_MESSAGES.loggedOutEverywhere });
  });

  /**
   * Proves the password (or a code) again in this session: for REAUTH_WINDOW_SECONDS the
   * sensitive changes (http/guards.ts requireReauth) go through. Wrong answers count per user.
   */
  router.post('/reauth', requireAuth(ctx, { duringEnrolment: true }), validate(reauthSchema), async (req, res) => {
    const { user, session } = req.auth!;
    if (!session) throw ApiError.forbidden(SECURITY_MESSAGES.sessionRequired, 'SESSION_REQUIRED');
    const { password, code } = inputOf(req, reauthSchema);
    const limit = await limiters.reauthPerUser.consume(user.id);
    if (limit.limited) throw ApiError.tooManyRequests(limit.retryAfter);
    if (password) {
      if (!(await verifyPassword(password, user.passwordHash))) {
        throw new ApiError(400, 'WRONG_PASSWORD', SECURITY_MESSAGES.passwordWrong, { fields: { password: SECURITY_MESSAGES.passwordWrong } });
      }
    } else if (!code || !(await useSecondFactor(ctx, user.id, code))) {
      throw new ApiError(400, 'TWO_FACTOR_CODE_INVALID', SECURITY_MESSAGES.twoFactorCodeInvalid, { fields: { code: SECURITY_MESSAGES.twoFactorCodeInvalid } });
    }
    await limiters.reauthPerUser.reset(user.id);
    const at = new Date();
    await markSessionVerified(ctx, session.id, at);
    // Every process sees the proof before the client retries what was refused.
    await ctx.auth.changesSettled();
    ctx.logger.info({ userId: user.id, sessionId: session.id, with: password ? 'password' : 'code' }, 'session re-authenticated');
    const body: ReauthResponse = { message: SECURITY_MESSAGES.reauthDone, verifiedUntil: new Date(at.getTime() + REAUTH_WINDOW_SECONDS * 1000).toISOString() };
    res.json(body);
  });

  router.use('/sessions', createSessionsRouter(ctx));
  router.use('/2fa', createTwoFactorRouter(ctx));
  router.use('/tokens', createApiTokensRouter(ctx));

  return router;
}

/**
 * users.lastLogin (in the answer too) and the sign-in's audit event, together; a bulk update, so
 * the row's hooks (which end sessions) stay out of it.
 */
async function recordLogin(ctx: Pick<AppContext, 'models' | 'sequelize'>, req: Request, user: User, details?: Record<string, string>): Promise<void> {
  const lastLogin = new Date();
  await ctx.sequelize.transaction(async (transaction) => {
    await ctx.models.User.update({ lastLogin }, { where: { id: user.id }, transaction });
    await recordAudit(ctx, { action: 'auth.sign_in', actor: requestActor(req, user), target: userAuditTarget(user), ...(details ? { details } : {}) }, { transaction });
  });
  user.lastLogin = lastLogin;
}

/** A checked attempt that failed (the limits' refusals are not recorded: the trail grows no faster than they allow). */
async function recordFailedSignIn(ctx: Pick<AppContext, 'sequelize'>, req: Request, user: User | null, email: string, reason: string): Promise<void> {
  const target = user ? userAuditTarget(user) : { type: 'user' as const, id: null, label: email };
  await recordAudit(ctx, { action: 'auth.sign_in_failed', actor: requestActor(req, null), target, accountId: user?.id ?? null, details: { reason } });
}

/** A sign-up with a taken address: where to go instead, on the e-mail field. */
function registerEmailTaken(): ApiError {
  const details: RegisterEmailTakenDetails = { loginPath: '/login', forgotPasswordPath: '/forgot-password' };
  return new ApiError(409, 'EMAIL_TAKEN', ACCOUNT_MESSAGES.registerEmailTaken, { fields: { email: ACCOUNT_MESSAGES.registerEmailTaken }, details });
}
