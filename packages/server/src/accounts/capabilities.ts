/**
 * Capabilities: secrets a signed-in credential derives — a download link's token, an event
 * stream's ticket, anything added later — that then act on their own, with the rights of whoever
 * minted them. Each records the credential that minted it (what names it, never the secret: a
 * session's user, tokenVersion, id and expiry, or an API token's id) and holds only while that
 * credential does: revoking the token, signing out, a password change, deactivation or deletion
 * ends every capability it made, on every process, with no list of capabilities to sweep.
 * Whether a credential still holds is `auth.recheck`'s answer alone.
 *
 * A table of capabilities stores the record in a JSONB column `credential` (NOT NULL).
 */
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import type { RecordedCredential } from '../models/index.js';
import type { AuthResult, AuthService, Credential } from './authService.js';

/** What a capability keeps of the credential that mints it. */
export function recordCredential(credential: Credential): RecordedCredential {
  if (credential.method === 'api_token') return { method: 'api_token', userId: credential.userId, apiTokenId: credential.apiTokenId };
  return {
    method: 'jwt',
    userId: credential.userId,
    tokenVersion: credential.tokenVersion,
    ...(credential.expiresAt ? { expiresAt: credential.expiresAt.toISOString() } : {}),
    ...(credential.sessionId !== undefined ? { sessionId: credential.sessionId } : {}),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The credential a stored record names; undefined for anything that is not one (it then opens nothing). */
export function credentialFromRecord(value: unknown): Credential | undefined {
  if (!isRecord(value) || typeof value.userId !== 'string') return undefined;
  if (value.method === 'api_token') {
    return typeof value.apiTokenId === 'string' ? { method: 'api_token', userId: value.userId, apiTokenId: value.apiTokenId } : undefined;
  }
  if (value.method !== 'jwt' || typeof value.tokenVersion !== 'number') return undefined;
  const expiresAt = typeof value.expiresAt === 'string' ? new Date(value.expiresAt) : undefined;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) return undefined;
  return {
    method: 'jwt',
    userId: value.userId,
    tokenVersion: value.tokenVersion,
    ...(expiresAt ? { expiresAt } : {}),
    ...(typeof value.sessionId === 'string' ? { sessionId: value.sessionId } : {}),
  };
}

/**
 * The user a capability acts for now, through the credential it recorded: refused (TOKEN_INVALID
 * or ACCOUNT_DISABLED) once that credential no longer holds, or when the record is unreadable.
 */
export async function capabilityHolder(auth: Pick<AuthService, 'recheck'>, recorded: unknown): Promise<AuthResult> {
  const credential = credentialFromRecord(recorded);
  if (!credential) return { ok: false, code: 'TOKEN_INVALID', message: ACCOUNT_MESSAGES.tokenInvalid };
  return auth.recheck(credential);
}
