import { Router } from 'express';
import {
  ACCOUNT_MESSAGES,
  EMAIL_MESSAGES,
  changePasswordSchema,
  loginSchema,
  registerSchema,
  type ApiUser,
  type AuthResponse,
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
import { endAllSessions, endSession } from './sessionEnder.js';
import { presentSession, presentUser } from './userPresenter.js';
import { createApiTokensRouter } from './apiTokenRoutes.js';

/**
 * POST /api/auth/register → 201 { message, email }, the same for a taken address (recovery.ts has the e-mail routes)
 * POST /api/auth/login → { token, expiresIn, user }
 * GET /api/auth/verify → { user }; GET /api/auth/me → the user
 * PATCH /api/auth/change-password → { message, token, expiresIn, user } (older sessions end)
 * POST /api/auth/logout → { message } (this session ends); POST /api/auth/logout-all → { message } (every session ends)
 * /api/auth/tokens → personal API tokens (apiTokens/router.ts)
 */
export function createAuthRouter(ctx: AppContext): Router {
  const router = Router();
  const { limiters } = ctx.auth;

  const session = (user: User): AuthResponse => presentSession(ctx.auth, user);

  router.post(
    '/register',
    rateLimit(limiters.registerPerAddress),
    validate(registerSchema),
    async (req, res) => {
      const input = inputOf(req, registerSchema);
      // A taken address answers exactly like a new one (no account enumeration); its owner is told by e-mail.
      const user = await createUser(ctx, { email: input.email, password: input.password, name: input.name ?? null }).catch((err: unknown) => {
        if (isEmailTaken(err)) return null;
        throw err;
      });
      if (user) await ctx.mail.welcome(user);
      else await ctx.mail.registrationAttempt(input.email);
      const body: RegisterResponse = { message: EMAIL_MESSAGES.registerCheckEmail, email: input.email };
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
    if (!user || !ok) throw ApiError.unauthorized(ACCOUNT_MESSAGES.invalidCredentials, 'INVALID_CREDENTIALS');
    if (!user.isActive) throw ApiError.unauthorized(ACCOUNT_MESSAGES.accountDisabled, 'ACCOUNT_DISABLED');
    const lastLogin = new Date();
    // A hash of older parameters is upgraded: same password, so a bulk update (no hook) keeps
    // the sessions valid.
    const upgrade = needsRehash(user.passwordHash) ? { passwordHash: await hashPassword(password) } : {};
    await ctx.models.User.update({ lastLogin, ...upgrade }, { where: { id: user.id } });
    user.set({ lastLogin, ...upgrade });
    res.json(session(user));
  });

  router.get('/verify', requireAuth(ctx), (req, res) => {
    const body: { user: ApiUser } = { user: presentUser(authUser(req)) };
    res.json(body);
  });

  router.get('/me', requireAuth(ctx), (req, res) => {
    res.json(presentUser(authUser(req)));
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
    await setPassword(user, newPassword);
    // Sockets and event streams opened with the ended sessions close too.
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id }, 'password changed');
    await ctx.mail.passwordChanged(user);
    res.json({ message: ACCOUNT_MESSAGES.passwordChanged, ...session(user) });
  });

  /**
   * Signs out of the session the request carries, on the server: its token stops working on
   * every process and its sockets and event streams close; the user's other sessions go on.
   */
  router.post('/logout', requireAuth(ctx), async (req, res) => {
    const { user, credential } = req.auth!;
    if (credential.method !== 'jwt') throw new ApiError(400, 'LOGOUT_NEEDS_SESSION', ACCOUNT_MESSAGES.logoutNeedsSession);
    await endSession(ctx, user.id, credential.sessionId, credential.expiresAt);
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id }, 'signed out');
    res.json({ message: ACCOUNT_MESSAGES.loggedOut });
  });

  /** Signs out of every session of the user (this one too); API tokens stay. */
  router.post('/logout-all', requireAuth(ctx), async (req, res) => {
    const { user } = req.auth!;
    if (req.auth!.credential.method !== 'jwt') throw new ApiError(400, 'LOGOUT_NEEDS_SESSION', ACCOUNT_MESSAGES.logoutNeedsSession);
    await endAllSessions(ctx, user.id);
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id }, 'signed out everywhere');
    res.json({ message: ACCOUNT_MESSAGES.loggedOutEverywhere });
  });

  router.use('/tokens', createApiTokensRouter(ctx));

  return router;
}
