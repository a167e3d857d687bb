/**
 * Session tokens (JWT), the sign-in challenges of two-factor sign-in (JWT under a key of their
 * own, so a challenge never verifies as a session), and personal API tokens (random secrets,
 * stored as SHA-256).
 */
import { createHash, createHmac, createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { API_TOKEN_PREFIX } from '@aabify/shared';

export const JWT_ISSUER = 'aabify';
export const JWT_ALGORITHM = 'HS256';

/** What a session token carries besides sub (user id), iat and exp. */
export interface SessionClaims {
  /** The user's tokenVersion when the token was made; a mismatch means signed out. */
  tv: number;
}

/**
 * The HMAC key of session tokens, made once. Given a string, jsonwebtoken tries to parse it as
 * a PEM key on every call and fails, which costs ~350 µs of CPU (most of a status read). A secret
 * KeyObject skips that. The bytes are the same as the string's, so the tokens are too.
 */
export function sessionKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * A session token; its jti names the session's row (accounts/sessions.ts). Without a row yet
 * (`sessionId` not given), the first request with it writes one.
 */
export function signSessionToken(secret: KeyObject, userId: string, tokenVersion: number, ttlSeconds: number, sessionId: string = randomUUID()): string {
  const claims: SessionClaims = { tv: tokenVersion };
  return jwt.sign(claims, secret, { algorithm: JWT_ALGORITHM, subject: userId, issuer: JWT_ISSUER, expiresIn: ttlSeconds, jwtid: sessionId });
}

export interface VerifiedSession {
  userId: string;
  tokenVersion: number;
  /** When the token stops being valid (its exp claim). */
  expiresAt?: Date;
  /** When it was signed (its iat claim). */
  issuedAt?: Date;
  /** The jti (for tokens made before sessions were named, an id derived from the token's claims). */
  sessionId?: string;
}

/** Reads the claims of a payload already verified (signature, expiry, issuer). */
export function sessionFromPayload(payload: unknown): VerifiedSession | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { sub, tv, exp, iat, jti } = payload as { sub?: unknown; tv?: unknown; exp?: unknown; iat?: unknown; jti?: unknown };
  if (typeof sub !== 'string' || typeof tv !== 'number' || !Number.isInteger(tv)) return undefined;
  return {
    userId: sub,
    tokenVersion: tv,
    ...(typeof exp === 'number' ? { expiresAt: new Date(exp * 1000) } : {}),
    ...(typeof iat === 'number' ? { issuedAt: new Date(iat * 1000) } : {}),
    ...(typeof jti === 'string' ? { sessionId: jti } : typeof iat === 'number' && typeof exp === 'number' ? { sessionId: unnamedSessionId(sub, iat, exp) } : {}),
  };
}

/**
 * The row id of a token signed before sessions were named (no jti): derived from what the
 * token says, so each such token still gets a row of its own and can be ended alone.
 */
function unnamedSessionId(userId: string, issuedAt: number, expiresAt: number): string {
  const hex = createHash('sha256').update(`unnamed-session|${userId}|${issuedAt}|${expiresAt}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function verifySessionToken(secret: KeyObject, token: string): VerifiedSession | undefined {
  try {
    return sessionFromPayload(jwt.verify(token, secret, { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER }));
  } catch {
    return undefined;
  }
}

/** The key of sign-in challenges: derived from the session secret, never equal to it. */
export function challengeKey(secret: string): KeyObject {
  return createSecretKey(createHmac('sha256', secret).update('aabify two-factor sign-in challenge').digest());
}

const CHALLENGE_AUDIENCE = 'aabify-2fa';

/** What a sign-in challenge names: whose password was right, and the session it may open. */
export interface SignInChallenge {
  userId: string;
  tokenVersion: number;
  /** The id the session gets when the code is right: a challenge opens one session at most. */
  sessionId: string;
}

export function signChallenge(key: KeyObject, challenge: SignInChallenge, ttlSeconds: number): string {
  const claims: SessionClaims = { tv: challenge.tokenVersion };
  return jwt.sign(claims, key, {
    algorithm: JWT_ALGORITHM,
    subject: challenge.userId,
    issuer: JWT_ISSUER,
    audience: CHALLENGE_AUDIENCE,
    expiresIn: ttlSeconds,
    jwtid: challenge.sessionId,
  });
}

export function verifyChallenge(key: KeyObject, token: string): SignInChallenge | undefined {
  try {
    const session = sessionFromPayload(jwt.verify(token, key, { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER, audience: CHALLENGE_AUDIENCE }));
    return session?.sessionId ? { userId: session.userId, tokenVersion: session.tokenVersion, sessionId: session.sessionId } : undefined;
  } catch {
    return undefined;
  }
}

export function isApiTokenShaped(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

export function generateApiToken(): { token: string; hash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 8) };
}

/** API tokens hold 256 random bits: a fast hash is enough, and makes lookup by hash possible. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
