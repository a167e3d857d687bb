/**
 * Authentication for one server context: passport with the JWT strategy for session tokens,
 * sessions (rows, accounts/sessions.ts), API token lookup, token issuing, the sign-in
 * challenges of two-factor sign-in and the sign-in rate limits. Routes use it through the
 * middlewares in http/guards.ts; socket.io and SSE call authenticateToken directly.
 */
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { Op, type Sequelize } from 'sequelize';
import { ACCOUNT_MESSAGES, TWO_FACTOR_CHALLENGE_SECONDS, type ApiTokenScope } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Notifier } from '../db/notifications.js';
import type { IoMark } from '../db/notifiedCache.js';
import type { Models, Session, User } from '../models/index.js';
import { cachedSession, PrincipalCache, type CachedSession } from './principalCache.js';
import type { Limiter, RateLimiterOptions, RateLimits } from '../http/rateLimiter.js';
import { adoptSession, createSession } from './sessions.js';
import {
  JWT_ALGORITHM,
  JWT_ISSUER,
  challengeKey,
  hashApiToken,
  isApiTokenShaped,
  sessionFromPayload,
  sessionKey,
  signChallenge,
  signSessionToken,
  verifyChallenge,
  verifySessionToken,
  type SignInChallenge,
  type VerifiedSession,
} from './tokens.js';

export type AuthMethod = 'jwt' | 'api_token';

/**
 * What a long-lived connection (socket, event stream, stream ticket) was opened with, kept so
 * it can be checked again later without holding the secret: a session's user and
 * tokenVersion (and expiry), or an API token's id.
 */
export type Credential =
  | {
      method: 'jwt';
      userId: string;
      tokenVersion: number;
      expiresAt?: Date;
      /** The session's row; absent only in credentials recorded without it (checked by tokenVersion and expiry). */
      sessionId?: string;
    }
  | { method: 'api_token'; userId: string; apiTokenId: string };

/** What a request's session proved, for re-authentication and the two-factor enrolment limit. */
export interface SessionState {
  id: string;
  createdAt: Date;
  /** Last password or two-factor proof (sign-in, POST /auth/reauth). */
  verifiedAt: Date | null;
  /** The session may only enrol in two-factor sign-in (it was made without it where it is required). */
  enrolmentOnly: boolean;
}

export type AuthResult =
  | {
      ok: true;
      user: User;
      method: AuthMethod;
      apiTokenId?: string;
      credential: Credential;
      /** With a session token. */
      session?: SessionState;
      /** With an API token: what it may do. */
      scopes?: readonly ApiTokenScope[];
    }
  | { ok: false; code: 'TOKEN_INVALID' | 'ACCOUNT_DISABLED'; message: string };

/** Where a new session comes from, as its row keeps it. */
export interface SessionOrigin {
  userAgent: string | null;
  address: string | null;
  /** Limited to enrolling in two-factor sign-in. */
  enrolmentRequired?: boolean;
  /** Fixed by a sign-in challenge: the session it opens (null answer when already opened). */
  sessionId?: string;
}

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
  /** Wrong passwords or codes per user when a session proves itself again (POST /auth/reauth, disabling 2FA). */
  reauthPerUser: RateLimiterOptions;
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
  reauthPerUser: { points: 5, windowMs: 15 * MINUTE },
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
/** lastUsedAt of an API token or a session is written at most once per this interval. */
export const API_TOKEN_TOUCH_INTERVAL_MS = 60_000;

export interface AuthService {
  readonly passport: passport.Authenticator;
  readonly sessionTtlSeconds: number;
  readonly limiters: AuthLimiters;
  /**
   * A new session: its row (proven now), then its token. Null only when `origin.sessionId` was
   * taken already (a sign-in challenge used twice).
   */
  startSession(user: User, origin: SessionOrigin): Promise<{ token: string; session: Session } | null>;
  /**
   * A session token whose row is written by the first request with it (as for tokens signed
   * before sessions were rows): for tests and tools that sign a user in without a request.
   */
  issueToken(user: User): string;
  /** The second step of a sign-in with two-factor: proves the password was right, for a few minutes. */
  issueChallenge(user: User): { challenge: string; expiresIn: number };
  /** A challenge's content when it verifies (signature, expiry); its user is checked by the caller. */
  openChallenge(raw: string): SignInChallenge | undefined;
  /**
   * A bearer credential (session JWT or API token) to a user, for HTTP, socket.io and SSE.
   * `since`: when the request arrived (http/app.ts), so that later cache reads of it need not wait again.
   */
  authenticateToken(raw: string, since?: IoMark): Promise<AuthResult>;
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
  /** Users, sessions and API tokens in memory (accounts/principalCache.ts). */
  readonly principals: PrincipalCache;
}

const invalid: AuthResult = { ok: false, code: 'TOKEN_INVALID', message: ACCOUNT_MESSAGES.tokenInvalid };
const disabled: AuthResult = { ok: false, code: 'ACCOUNT_DISABLED', message: ACCOUNT_MESSAGES.accountDisabled };

export function createAuthService(opts: {
  models: Models;
  sequelize: Sequelize;
  jwtSecret: string;
  /** During a JWT_SECRET rotation: sessions signed with the previous secret stay valid until they expire. */
  jwtSecretPrevious?: string;
  logger: Logger;
  rateLimits: RateLimits;
  limits?: Partial<AuthLimits>;
  sessionTtlSeconds?: number;
  /** Cross-process invalidation of the principal cache; without it nothing is cached. */
  notifier?: Notifier;
  /** The models the principal cache reads through (the read lane's, db/readLane.ts). */
  readModels: Models;
}): AuthService {
  const { models, sequelize, jwtSecret, logger, notifier } = opts;
  const principals = new PrincipalCache(models, notifier, opts.readModels);
  const limits = { ...DEFAULT_AUTH_LIMITS, ...opts.limits };
  const sessionTtlSeconds = opts.sessionTtlSeconds ?? SESSION_TTL_SECONDS;
  const jwtKey = sessionKey(jwtSecret);
  const previousKey = opts.jwtSecretPrevious ? sessionKey(opts.jwtSecretPrevious) : undefined;
  /** The key a token verifies with: the current one, else the previous one during a rotation. */
  const keyFor = (raw: string) => (previousKey && !verifySessionToken(jwtKey, raw) ? previousKey : jwtKey);
  const challenges = challengeKey(jwtSecret);

  /** lastUsedAt written at most once a minute per row, by any process (its own cache was as old). */
  async function touch(table: 'api_tokens' | 'sessions', row: { id: string; lastUsedAt: Date | null }): Promise<void> {
    const now = new Date();
    if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < API_TOKEN_TOUCH_INTERVAL_MS) return;
    const staleBefore = new Date(now.getTime() - API_TOKEN_TOUCH_INTERVAL_MS);
    row.lastUsedAt = now;
    const model = table === 'api_tokens' ? models.ApiToken : models.Session;
    // No hooks: the cached entry is current already (a bulk write's hook would drop every entry).
    await (model as typeof models.Session)
      .update({ lastUsedAt: now }, { where: { id: row.id, [Op.or]: [{ lastUsedAt: null }, { lastUsedAt: { [Op.lt]: staleBefore } }] }, hooks: false })
      .catch((err: unknown) => logger.warn({ err, table }, 'lastUsedAt not written'));
  }

  async function sessionRow(id: string, fresh: boolean, since?: IoMark): Promise<CachedSession | undefined> {
    if (!fresh) return principals.sessionById(id, since);
    const row = await models.Session.findByPk(id);
    return row ? cachedSession(row) : undefined;
  }

  /**
   * A verified session token against its row and its user. `fresh`: read both now, not the
   * cache (rechecks after an access change, whose serverSideEmit may outrun the notifications).
   * `since`: when the request arrived (db/notifiedCache.ts).
   */
  async function userForSession(v: VerifiedSession, fresh = false, since?: IoMark): Promise<AuthResult> {
    const loadUser = () => (fresh ? models.User.findByPk(v.userId) : principals.userById(v.userId, since)).catch(() => null);
    if (v.sessionId === undefined) return invalid;
    const [cached, user] = await Promise.all([sessionRow(v.sessionId, fresh, since).catch(() => undefined), loadUser()]);
    let row = cached;
    if (!user || user.tokenVersion !== v.tokenVersion) return invalid;
    if (!row) {
      // Signed before sessions were rows (or by issueToken): its first use writes the row.
      if (!v.expiresAt || !v.issuedAt || v.expiresAt.getTime() <= Date.now()) return invalid;
      await adoptSession({ models, sequelize }, { id: v.sessionId, userId: user.id, tokenVersion: v.tokenVersion, issuedAt: v.issuedAt, expiresAt: v.expiresAt });
      row = await sessionRow(v.sessionId, true);
      if (!row) return invalid;
    }
    if (row.userId !== user.id || row.tokenVersion !== user.tokenVersion || row.endedAt || row.expiresAt.getTime() <= Date.now()) return invalid;
    if (!user.isActive) return disabled;
    if (!fresh) await touch('sessions', row);
    const credential: Credential = { method: 'jwt', userId: user.id, tokenVersion: v.tokenVersion, expiresAt: v.expiresAt, sessionId: row.id };
    const session: SessionState = {
      id: row.id,
      createdAt: row.createdAt,
      verifiedAt: row.verifiedAt,
      enrolmentOnly: row.enrolmentRequired && !user.twoFactorEnabled(),
    };
    return { ok: true, user, method: 'jwt', credential, session };
  }

  async function recheck(credential: Credential): Promise<AuthResult> {
    if (credential.method === 'jwt') {
      if (credential.expiresAt && credential.expiresAt.getTime() <= Date.now()) return invalid;
      if (credential.sessionId !== undefined) return userForSession(credential, true);
      // Recorded without its session (a stream ticket): the user's tokenVersion and the expiry.
      const user = await models.User.findByPk(credential.userId).catch(() => null);
      if (!user || user.tokenVersion !== credential.tokenVersion) return invalid;
      if (!user.isActive) return disabled;
      return { ok: true, user, method: 'jwt', credential };
    }
    const token = await models.ApiToken.findByPk(credential.apiTokenId, { include: [{ model: models.User, as: 'user', required: true }] }).catch(() => null);
    if (!token?.user || token.user.id !== credential.userId) return invalid;
    if (!token.user.isActive) return disabled;
    token.user.viaApiToken = true;
    return { ok: true, user: token.user, method: 'api_token', apiTokenId: token.id, credential, scopes: token.scopes };
  }

  async function userForApiToken(raw: string, since?: IoMark): Promise<AuthResult> {
    const token = await principals.tokenByHash(hashApiToken(raw), since);
    const user = token && (await principals.userById(token.userId, since));
    if (!token || !user) return invalid;
    if (!user.isActive) return disabled;
    await touch('api_tokens', token);
    // Never an administrator's rights through a token (User.isAdmin).
    user.viaApiToken = true;
    return {
      ok: true,
      user,
      method: 'api_token',
      apiTokenId: token.id,
      credential: { method: 'api_token', userId: user.id, apiTokenId: token.id },
      scopes: token.scopes,
    };
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
        passReqToCallback: true,
      },
      (req: Request, payload: unknown, done: (err: unknown, user?: User | false, info?: AuthResult) => void) => {
        const session = sessionFromPayload(payload);
        if (!session) return done(null, false, invalid);
        userForSession(session, false, req.ioMark).then(
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
    reauthPerUser: rateLimits.limiter('reauth-user', limits.reauthPerUser, refunded),
    badCredentialsPerAddress: rateLimits.limiter('bad-credentials-address', limits.badCredentialsPerAddress),
  };

  return {
    passport: authenticator,
    sessionTtlSeconds,
    limiters,
    async startSession(user, origin) {
      const created = await createSession(
        { models, sequelize },
        {
          id: origin.sessionId,
          user,
          expiresAt: new Date(Date.now() + sessionTtlSeconds * 1000),
          userAgent: origin.userAgent,
          address: origin.address,
          enrolmentRequired: origin.enrolmentRequired,
        },
      );
      if (!created) return null;
      // A session ended for being past the cap stops working everywhere before the sign-in answers.
      if (created.ended > 0) await notifier?.sync();
      const { row } = created;
      return { token: signSessionToken(jwtKey, user.id, user.tokenVersion, sessionTtlSeconds, row.id), session: row };
    },
    issueToken: (user) => signSessionToken(jwtKey, user.id, user.tokenVersion, sessionTtlSeconds),
    issueChallenge: (user) => ({
      challenge: signChallenge(challenges, { userId: user.id, tokenVersion: user.tokenVersion, sessionId: randomUUID() }, TWO_FACTOR_CHALLENGE_SECONDS),
      expiresIn: TWO_FACTOR_CHALLENGE_SECONDS,
    }),
    openChallenge: (raw) => verifyChallenge(challenges, raw),
    async authenticateToken(raw, since) {
      if (isApiTokenShaped(raw)) return userForApiToken(raw, since);
      const session = verifySessionToken(keyFor(raw), raw);
      return session ? userForSession(session, false, since) : invalid;
    },
    recheck,
    changesSettled: async () => {
      await notifier?.sync();
    },
    principals,
  };
}
