/** Session tokens (JWT) and personal API tokens (random secrets, stored as SHA-256). */
import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
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

/** A session token; its jti names the session, so signing out can end this one alone. */
export function signSessionToken(secret: KeyObject, userId: string, tokenVersion: number, ttlSeconds: number): string {
  const claims: SessionClaims = { tv: tokenVersion };
  return jwt.sign(claims, secret, { algorithm: JWT_ALGORITHM, subject: userId, issuer: JWT_ISSUER, expiresIn: ttlSeconds, jwtid: randomUUID() });
}

export interface VerifiedSession {
  userId: string;
  tokenVersion: number;
  /** When the token stops being valid (its exp claim). */
  expiresAt?: Date;
  /** The jti: absent only from tokens made before sessions were named. */
  sessionId?: string;
}

/** Reads the claims of a payload already verified (signature, expiry, issuer). */
export function sessionFromPayload(payload: unknown): VerifiedSession | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { sub, tv, exp, jti } = payload as { sub?: unknown; tv?: unknown; exp?: unknown; jti?: unknown };
  if (typeof sub !== 'string' || typeof tv !== 'number' || !Number.isInteger(tv)) return undefined;
  return {
    userId: sub,
    tokenVersion: tv,
    ...(typeof exp === 'number' ? { expiresAt: new Date(exp * 1000) } : {}),
    ...(typeof jti === 'string' ? { sessionId: jti } : {}),
  };
}

export function verifySessionToken(secret: KeyObject, token: string): VerifiedSession | undefined {
  try {
    return sessionFromPayload(jwt.verify(token, secret, { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER }));
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
