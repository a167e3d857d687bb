/**
 * Route guards. Every protected route reads: rate limit → requireAuth(ctx, access) →
 * requirePlanAccess / requireReauth → validate → handler, and gets the signed-in user with
 * authUser(req).
 *
 *   router.get('/status/:id', requireAuth(ctx, { token: 'conversions:read' }), async (req, res) => {
 *     const user = authUser(req);
 *   });
 *
 * requireAuth accepts a session JWT, and a personal API token (`aab_…`) only where the route
 * names what a token needs (`token`: a permission its scopes must grant, accountSecurity.ts in
 * @aabify/shared). Without it the route is a session's alone (403 SESSION_REQUIRED for tokens):
 * a new route is closed to tokens until it says otherwise. Admin routes (`admin: true`) refuse
 * every API token (403 ADMIN_NEEDS_SESSION), an administrator's too.
 */
import type { Request, RequestHandler } from 'express';
import {
  ACCOUNT_MESSAGES,
  EMAIL_MESSAGES,
  LEGAL_MESSAGES,
  PLAN_ACCESS_ERROR_CODES,
  PLAN_ACCESS_REDIRECT,
  REAUTH_WINDOW_SECONDS,
  SECURITY_MESSAGES,
  planAccessMessage,
  scopesGrant,
  scopesGranting,
  tokenScopeMissingMessage,
  type ApiTokenPermission,
  type ApiTokenScope,
  type LegalAcceptanceRequiredDetails,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import type { AuthMethod, AuthResult, Credential, SessionState } from '../accounts/authService.js';
import { isApiTokenShaped } from '../accounts/tokens.js';
import { legalAcceptanceRequired, type LegalVersions } from '../legal/documents.js';
import { ApiError } from './errors.js';
import { addressLimitKey, clientKey, rateLimit } from './rateLimit.js';
import type { Limiter } from './rateLimiter.js';

export interface RequestAuth {
  user: User;
  method: AuthMethod;
  /** Set when the request came with an API token. */
  apiTokenId?: string;
  /** What the request was authenticated with, for things that outlive it (stream tickets). */
  credential: Credential;
  /** With a session token: its row's state (re-authentication, enrolment limit). */
  session?: SessionState;
  /** With an API token: its scopes. */
  scopes?: readonly ApiTokenScope[];
}

/** Who may use a route, beyond holding a valid credential. */
export interface RouteAccess {
  /** What an API token needs here; without it, API tokens are refused (403 SESSION_REQUIRED). */
  token?: ApiTokenPermission | 'any';
  /** An administrator's route: 403 ADMIN_REQUIRED for others, 403 ADMIN_NEEDS_SESSION for any API token. */
  admin?: boolean;
  /** Open to a session limited to enrolling in two-factor sign-in (everything else answers 403 TWO_FACTOR_SETUP_REQUIRED). */
  duringEnrolment?: boolean;
  /**
   * Open to a customer's session that has not accepted the current Termos de Uso and Política de
   * Privacidade (everything else answers 403 LEGAL_ACCEPTANCE_REQUIRED): who am I, signing out,
   * the acceptance itself, and the account's own data rights (export, deletion).
   */
  beforeLegalAcceptance?: boolean;
}

type Authenticated = Extract<AuthResult, { ok: true }>;

/** Why an authenticated request may not use a route with this access, or undefined. */
export function accessRefusal(result: Authenticated, access: RouteAccess): ApiError | undefined {
  if (result.method === 'api_token') {
    if (access.admin) return ApiError.forbidden(SECURITY_MESSAGES.adminNeedsSession, 'ADMIN_NEEDS_SESSION');
    if (!access.token) return ApiError.forbidden(SECURITY_MESSAGES.sessionRequired, 'SESSION_REQUIRED');
    if (!scopesGrant(result.scopes ?? [], access.token)) {
      const requiredScopes = access.token === 'any' ? [] : scopesGranting(access.token);
      return new ApiError(403, 'TOKEN_SCOPE_MISSING', tokenScopeMissingMessage(requiredScopes), { details: { requiredScopes } });
    }
  } else if (result.session?.enrolmentOnly && !access.duringEnrolment) {
    return new ApiError(403, 'TWO_FACTOR_SETUP_REQUIRED', SECURITY_MESSAGES.twoFactorSetupRequired, { details: { setup: '/api/auth/2fa/setup' } });
  }
  if (access.admin && !result.user.isAdmin()) return ApiError.forbidden(ACCOUNT_MESSAGES.adminRequired, 'ADMIN_REQUIRED');
  return undefined;
}

declare global {
  // Express's request carries the authenticated user (and validated input, see validate.ts).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: RequestAuth;
    }
  }
}

/** The bearer token of a request, if any (Authorization: Bearer …). */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}

function failure(result: Extract<AuthResult, { ok: false }>): ApiError {
  return ApiError.unauthorized(result.message, result.code);
}

function isAuthResult(info: unknown): info is AuthResult {
  return typeof info === 'object' && info !== null && 'ok' in info;
}

/**
 * Whether a signed-in request must first accept the current legal documents: a customer's
 * session only — administrators run the service, and API tokens are machines (a CI pipeline
 * cannot read terms; its owner accepts them at the next sign-in to the dashboard).
 */
function needsLegalCheck(result: Authenticated, access: RouteAccess): boolean {
  return result.method === 'jwt' && !access.beforeLegalAcceptance && !access.admin && !result.user.hasAdminRole();
}

export function legalAcceptanceRequiredError(current: LegalVersions): ApiError {
  const details: LegalAcceptanceRequiredDetails = { accept: '/api/legal/acceptance', current };
  return new ApiError(403, 'LEGAL_ACCEPTANCE_REQUIRED', LEGAL_MESSAGES.acceptanceRequired, { details });
}

/**
 * 401 unless the request carries a valid session token or API token of an active user; 403
 * when the credential may not use the route (`access`, accessRefusal), or when a customer's
 * session has not accepted the current Termos de Uso and Política de Privacidade (403
 * LEGAL_ACCEPTANCE_REQUIRED, unless `access.beforeLegalAcceptance`). Credentials that do not
 * verify count per client address (badCredentialsPerAddress): past the limit the address gets
 * 429 from memory, before any token is looked at.
 */
export function requireAuth(ctx: Pick<AppContext, 'auth' | 'legal'>, access: RouteAccess = {}): RequestHandler {
  const badCredentials = ctx.auth.limiters.badCredentialsPerAddress;
  return (req, res, next) => {
    const raw = bearerToken(req);
    if (!raw) return next(ApiError.unauthorized(ACCOUNT_MESSAGES.tokenMissing, 'TOKEN_MISSING'));
    const addressKey = clientKey(req);
    const blockedMs = badCredentials.blockedInMemoryMs(addressKey);
    if (blockedMs > 0) return next(ApiError.tooManyRequests(Math.ceil(blockedMs / 1000)));
    const finish = (result: AuthResult) => {
      if (!result.ok) {
        badCredentials.consume(addressKey).then(
          (state) => next(state.limited ? ApiError.tooManyRequests(state.retryAfter) : failure(result)),
          next,
        );
        return;
      }
      const refused = accessRefusal(result, access);
      if (refused) return next(refused);
      if (needsLegalCheck(result, access)) {
        ctx.legal.currentVersions().then((current) => {
          if (legalAcceptanceRequired(result.user, current)) return next(legalAcceptanceRequiredError(current));
          admit(result);
        }, next);
        return;
      }
      admit(result);
    };
    const admit = (result: Authenticated) => {
      req.auth = {
        user: result.user,
        method: result.method,
        apiTokenId: result.apiTokenId,
        credential: result.credential,
        session: result.session,
        scopes: result.scopes,
      };
      req.user = result.user;
      next();
    };
    if (isApiTokenShaped(raw)) {
      ctx.auth.authenticateToken(raw, req.ioMark).then(finish, next);
      return;
    }
    const authenticate = ctx.auth.passport.authenticate('jwt', { session: false }, (err: unknown, user: unknown, info: unknown) => {
      if (err) return next(err);
      if (isAuthResult(info)) return finish(info);
      if (!user) return finish({ ok: false, code: 'TOKEN_INVALID', message: ACCOUNT_MESSAGES.tokenInvalid });
      next(new Error('jwt strategy answered without a result'));
    }) as RequestHandler;
    authenticate(req, res, next);
  };
}

/**
 * Whether the request carries a valid credential of this user, for routes that serve signed-out
 * visitors too: a missing, stale or foreign credential is simply not this user (never a 401).
 */
export async function signedInAs(ctx: Pick<AppContext, 'auth'>, req: Request, userId: string): Promise<boolean> {
  const raw = bearerToken(req);
  if (!raw) return false;
  const result = await ctx.auth.authenticateToken(raw, req.ioMark);
  return result.ok && result.user.id === userId;
}

/**
 * A credential check outside requireAuth (the socket handshake, event streams, download and
 * stream tickets) under the same per-address limit: past it, 429 from memory before any lookup,
 * and every refusal (401 or 404) counts. Without it each such request was a free database query.
 */
export async function limitedCredentialCheck<T>(ctx: Pick<AppContext, 'auth'>, address: string, check: () => Promise<T>): Promise<T> {
  const limiter = ctx.auth.limiters.badCredentialsPerAddress;
  const key = addressLimitKey(address);
  const blockedMs = limiter.blockedInMemoryMs(key);
  if (blockedMs > 0) throw ApiError.tooManyRequests(Math.ceil(blockedMs / 1000));
  try {
    return await check();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) {
      const state = await limiter.consume(key);
      if (state.limited) throw ApiError.tooManyRequests(state.retryAfter);
    }
    throw err;
  }
}

/** The signed-in user; only after requireAuth (a 401 otherwise). */
export function authUser(req: Request): User {
  if (!req.auth) throw ApiError.unauthorized(ACCOUNT_MESSAGES.tokenMissing, 'TOKEN_MISSING');
  return req.auth.user;
}

/**
 * 403 unless the signed-in user is an admin, on a session (an API token never acts as one).
 * After requireAuth; `requireAuth(ctx, { admin: true })` does both.
 */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  const user = authUser(req);
  if (req.auth?.method === 'api_token') throw ApiError.forbidden(SECURITY_MESSAGES.adminNeedsSession, 'ADMIN_NEEDS_SESSION');
  if (!user.isAdmin()) throw ApiError.forbidden(ACCOUNT_MESSAGES.adminRequired, 'ADMIN_REQUIRED');
  next();
};

/**
 * The sensitive changes (API tokens, upload key, Google Play key, two-factor settings): a
 * session that proved the password or a code within REAUTH_WINDOW_SECONDS (signing in counts),
 * else 403 REAUTH_REQUIRED — the dashboard then asks for the password (POST /auth/reauth) and
 * tries again. After requireAuth on a session-only route.
 */
export const requireReauth: RequestHandler = (req, _res, next) => {
  const session = req.auth?.session;
  if (!session) throw ApiError.forbidden(SECURITY_MESSAGES.sessionRequired, 'SESSION_REQUIRED');
  if (!isRecentlyVerified(session)) {
    throw new ApiError(403, 'REAUTH_REQUIRED', SECURITY_MESSAGES.reauthRequired, { details: { reauth: '/api/auth/reauth', methods: ['password', 'code'] } });
  }
  next();
};

export function isRecentlyVerified(session: Pick<SessionState, 'verifiedAt'>, now: number = Date.now()): boolean {
  return session.verifiedAt !== null && now - session.verifiedAt.getTime() < REAUTH_WINDOW_SECONDS * 1000;
}

/**
 * 402 unless the user's plan gives access (admins always pass); the answer says why
 * (code NO_PLAN | NO_CREDITS | PLAN_EXPIRED, details.planStatus) and where to go.
 */
export const requirePlanAccess: RequestHandler = (req, _res, next) => {
  const user = authUser(req);
  const status = user.planAccess();
  if (status !== 'active') {
    throw new ApiError(402, PLAN_ACCESS_ERROR_CODES[status], planAccessMessage(status), {
      details: { planStatus: status, redirectTo: PLAN_ACCESS_REDIRECT },
    });
  }
  next();
};

/** 403 EMAIL_NOT_VERIFIED, pointing at the call that sends a new confirmation link. */
export function emailNotVerifiedError(message: string = EMAIL_MESSAGES.emailNotVerified): ApiError {
  return new ApiError(403, 'EMAIL_NOT_VERIFIED', message, { details: { resend: '/api/auth/resend-verification' } });
}

/**
 * The `accounts.requireVerifiedEmail` guard: with the setting on, a customer whose address is
 * not confirmed cannot buy or convert (403 EMAIL_NOT_VERIFIED); admins always pass. After requireAuth.
 */
export function requireVerifiedEmail(ctx: Pick<AppContext, 'settings'>): RequestHandler {
  return async (req, _res, next) => {
    const user = authUser(req);
    if (user.hasAdminRole() || user.emailVerifiedAt || !(await ctx.settings.get('accounts.requireVerifiedEmail'))) return next();
    throw emailNotVerifiedError();
  };
}

/** Generous: the dashboard refreshes every 30 s and live lists poll; this only stops floods. */
export function adminRateLimiter(ctx: Pick<AppContext, 'rateLimits'>): Limiter {
  return ctx.rateLimits.limiter('admin', { points: 1200, windowMs: 60_000 });
}

/**
 * The guard every admin route starts with: requireAuth as an admin route (403 for anyone else,
 * and for every API token) → rate limit. requireAuth first: the limit counts per verified
 * admin, never per presented token.
 */
export function adminGuard(ctx: Pick<AppContext, 'auth' | 'legal'>, limiter: Limiter): RequestHandler[] {
  return [requireAuth(ctx, { admin: true }), rateLimit(limiter)];
}
