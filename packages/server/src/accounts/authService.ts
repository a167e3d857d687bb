/**
 * Authentication for one server context: passport with the JWT strategy for session tokens,
 * API token lookup, token issuing and the sign-in rate limits. Routes use it through the
 * middlewares in http/guards.ts; socket.io and SSE call authenticateToken directly.
 */
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { Op } from 'sequelize';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Notifier } from '../db/notifications.js';
import type { Models, User } from '../models/index.js';
import { PrincipalCache } from './principalCache.js';
import type { Limiter, RateLimiterOptions, RateLimits } from '../http/rateLimiter.js';
import {
  JWT_ALGORITHM,
  JWT_ISSUER,
  hashApiToken,
  isApiTokenShaped,
  sessionFromPayload,
  sessionKey,
  signSessionToken,
  verifySessionToken,
  type VerifiedSession,
} from './tokens.js';

export type AuthMethod = 'jwt' | 'api_token';

/**
 * What a long-lived connection (socket, event stream, stream ticket) was opened with, kept so
 * it can be checked again later without holding the secret: a session's user and
 * tokenVersion (and expiry), or an API token's id.
 */
export type Credential =
  | { method: 'jwt'; userId: string; tokenVersion: number; expiresAt?: Date; sessionId?: string }
  | { method: 'api_token'; userId: string; apiTokenId: string };

export type AuthResult =
  | { ok: true; user: User; method: AuthMethod; apiTokenId?: string; credential: Credential }
  | { ok: false; code: 'TOKEN_INVALID' | 'ACCOUNT_DISABLED'; message: string };

export interface AuthLimits {
  /** Sign-in attempts per (email, client address): strict, a guesser's own limit. */
  loginPerAccountAddress: RateLimiterOptions;
  /** Sign-in attempts per client address, whatever the emails (spraying from one place). */
  loginPerAddress: RateLimiterOptions;
  /**
   * Failed sign-ins per email from every address. Past `points`, each attempt on the account
   * opens a wait (LOGIN_SLOWDOWN) before the next is checked: slower, never locked.
   */
  loginPerAccount: RateLimiterOptions;
  /** Registrations per client address. */
  registerPerAddress: RateLimiterOptions;
  /** Wrong current passwords per user on password change. */
  passwordChangePerUser: RateLimiterOptions;
  /** Requests whose bearer credential does not verify, per client address. */
  badCredentialsPerAddress: RateLimiterOptions;
}

const MINUTE = 60_000;
export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginPerAccountAddress: { points: 5, windowMs: 15 * MINUTE },
  loginPerAddress: { points: 20, windowMs: 15 * MINUTE },
  loginPerAccount: { points: 20, windowMs: 60 * MINUTE },
  registerPerAddress: { points: 30, windowMs: 15 * MINUTE },
  passwordChangePerUser: { points: 5, windowMs: 15 * MINUTE },
  badCredentialsPerAddress: { points: 120, windowMs: MINUTE },
};

/** Wait after the n-th attempt beyond loginPerAccount's points: 1, 2, 4 … seconds, at most 60. */
export const LOGIN_SLOWDOWN = { firstSeconds: 1, maxSeconds: 60 };
export function loginWaitSeconds(excess: number): number {
  return Math.min(LOGIN_SLOWDOWN.maxSeconds, LOGIN_SLOWDOWN.firstSeconds * 2 ** Math.max(0, excess - 1));
}

export type AuthLimiters = { [K in keyof AuthLimits]: Limiter } & {
  /** One checked attempt per wait on an account past loginPerAccount's points. */
  loginAccountWait: Limiter;
};

/** Session tokens live 7 days; a password change or deactivation ends them sooner. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** lastUsedAt of an API token is written at most once per this interval. */
export const API_TOKEN_TOUCH_INTERVAL_MS = 60_000;

export interface AuthService {
  readonly passport: passport.Authenticator;
  readonly sessionTtlSeconds: number;
  readonly limiters: AuthLimiters;
  issueToken(user: User): string;
  /** A bearer credential (session JWT or API token) to a user, for HTTP, socket.io and SSE. */
  authenticateToken(raw: string): Promise<AuthResult>;
  /**
   * The credential a connection was opened with, against the database now (one indexed
   * query): the account still active, the session not ended (tokenVersion, expiry), the API
   * token not revoked. The user in the answer is the current row (role included).
   */
  recheck(credential: Credential): Promise<AuthResult>;
  /**
   * Resolves once this process has seen every change committed before the call (the caches'
   * notifications): writers of auth-relevant rows await it before answering.
   */
  changesSettled(): Promise<void>;
  /** Users and API tokens in memory (accounts/principalCache.ts). */
  readonly principals: PrincipalCache;
}

const invalid: AuthResult = { ok: false, code: 'TOKEN_INVALID', message: ACCOUNT_MESSAGES.tokenInvalid };
const disabled: AuthResult = { ok: false, code: 'ACCOUNT_DISABLED', message: ACCOUNT_MESSAGES.accountDisabled };

export function createAuthService(opts: {
  models: Models;
  jwtSecret: string;
  /** During a JWT_SECRET rotation: sessions signed with the previous secret stay valid until they expire. */
  jwtSecretPrevious?: string;
  logger: Logger;
  rateLimits: RateLimits;
  limits?: Partial<AuthLimits>;
  sessionTtlSeconds?: number;
  /** Cross-process invalidation of the principal cache; without it nothing is cached. */
  notifier?: Notifier;
}): AuthService {
  const { models, jwtSecret, logger, notifier } = opts;
  const principals = new PrincipalCache(models, notifier);
  const limits = { ...DEFAULT_AUTH_LIMITS, ...opts.limits };
  const sessionTtlSeconds = opts.sessionTtlSeconds ?? SESSION_TTL_SECONDS;
  const jwtKey = sessionKey(jwtSecret);
  const previousKey = opts.jwtSecretPrevious ? sessionKey(opts.jwtSecretPrevious) : undefined;
  /** The key a token verifies with: the current one, else the previous one during a rotation. */
  const keyFor = (raw: string) => (previousKey && !verifySessionToken(jwtKey, raw) ? previousKey : jwtKey);

  /**
   * `fresh`: read the row now, not the cache (rechecks after an access change, whose
   * serverSideEmit may outrun the row's notification).
   */
  async function userForSession(session: VerifiedSession, fresh = false): Promise<AuthResult> {
    const user = await (fresh ? models.User.findByPk(session.userId) : principals.userById(session.userId)).catch(() => null);
    if (!user || user.tokenVersion !== session.tokenVersion) return invalid;
    // Signed out of this session alone (POST /auth/logout).
    if (session.sessionId !== undefined && user.endedSessions.some((e) => e.id === session.sessionId)) return invalid;
    if (!user.isActive) return disabled;
    const credential: Credential = { method: 'jwt', userId: user.id, tokenVersion: session.tokenVersion, expiresAt: session.expiresAt, sessionId: session.sessionId };
    return { ok: true, user, method: 'jwt', credential };
  }

  async function recheck(credential: Credential): Promise<AuthResult> {
    if (credential.method === 'jwt') {
      if (credential.expiresAt && credential.expiresAt.getTime() <= Date.now()) return invalid;
      return userForSession(credential, true);
    }
    const token = await models.ApiToken.findByPk(credential.apiTokenId, { include: [{ model: models.User, as: 'user', required: true }] }).catch(() => null);
    if (!token?.user || token.user.id !== credential.userId) return invalid;
    if (!token.user.isActive) return disabled;
    return { ok: true, user: token.user, method: 'api_token', apiTokenId: token.id, credential };
  }

  async function userForApiToken(raw: string): Promise<AuthResult> {
    const token = await principals.tokenByHash(hashApiToken(raw));
    const user = token && (await principals.userById(token.userId));
    if (!token || !user) return invalid;
    if (!user.isActive) return disabled;
    const now = new Date();
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= API_TOKEN_TOUCH_INTERVAL_MS) {
      const staleBefore = new Date(now.getTime() - API_TOKEN_TOUCH_INTERVAL_MS);
      // Another process may have written it already (its own cache was as old): one write a minute at most.
      token.lastUsedAt = now;
      await models.ApiToken.update(
        { lastUsedAt: now },
        // No hooks: the cached entry is current already (a bulk write's hook would drop every token).
        { where: { id: token.id, [Op.or]: [{ lastUsedAt: null }, { lastUsedAt: { [Op.lt]: staleBefore } }] }, hooks: false },
      ).catch((err: unknown) => logger.warn({ err }, 'api token lastUsedAt not written'));
    }
    return { ok: true, user, method: 'api_token', apiTokenId: token.id, credential: { method: 'api_token', userId: user.id, apiTokenId: token.id } };
  }

  const authenticator = new passport.Passport();
  authenticator.use(
    'jwt',
    new JwtStrategy(
      {
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        // passport-jwt's types predate KeyObject; it hands the key to jsonwebtoken.verify as is.
        ...(previousKey
          ? { secretOrKeyProvider: (_req: unknown, raw: string, done: (err: unknown, key?: Buffer) => void) => done(null, keyFor(raw) as unknown as Buffer) }
          : { secretOrKey: jwtKey as unknown as Buffer }),
        algorithms: [JWT_ALGORITHM],
        issuer: JWT_ISSUER,
      },
      (payload: unknown, done: (err: unknown, user?: User | false, info?: AuthResult) => void) => {
        const session = sessionFromPayload(payload);
        if (!session) return done(null, false, invalid);
        userForSession(session).then(
          (result) => (result.ok ? done(null, result.user, result) : done(null, false, result)),
          (err: unknown) => done(err),
        );
      },
    ),
  );

  // Points of the sign-in limiters are given back or forgotten on success: no memory blocks.
  const { rateLimits } = opts;
  const refunded = { blockInMemory: false };
  const limiters: AuthLimiters = {
    loginPerAccountAddress: rateLimits.limiter('login-account-address', limits.loginPerAccountAddress, refunded),
    loginPerAddress: rateLimits.limiter('login-address', limits.loginPerAddress, refunded),
    loginPerAccount: rateLimits.limiter('login-account', limits.loginPerAccount, refunded),
    loginAccountWait: rateLimits.limiter('login-account-wait', { points: 1, windowMs: LOGIN_SLOWDOWN.maxSeconds * 1000 }, refunded),
    registerPerAddress: rateLimits.limiter('register-address', limits.registerPerAddress),
    passwordChangePerUser: rateLimits.limiter('password-change-user', limits.passwordChangePerUser, refunded),
    badCredentialsPerAddress: rateLimits.limiter('bad-credentials-address', limits.badCredentialsPerAddress),
  };

  return {
    passport: authenticator,
    sessionTtlSeconds,
    limiters,
    issueToken: (user) => signSessionToken(jwtKey, user.id, user.tokenVersion, sessionTtlSeconds),
    async authenticateToken(raw) {
      if (isApiTokenShaped(raw)) return userForApiToken(raw);
      const session = verifySessionToken(keyFor(raw), raw);
      return session ? userForSession(session) : invalid;
    },
    recheck,
    changesSettled: async () => {
      await notifier?.sync();
    },
    principals,
  };
}
