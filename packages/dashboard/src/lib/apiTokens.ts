/**
 * The personal API tokens of /account/api-tokens (docs/accounts.md, "API tokens"): how a token
 * reads in the list, the list kept current from the server's answers, and the refusals of a
 * creation the form shows as they are (the limit, an unconfirmed address). Pure, tested without
 * a browser.
 */
import { ACCOUNT_MESSAGES, type ApiTokenJson, type CreatedApiTokenResponse } from '@aabify/shared';
import type { RequestFailure } from './errors';
import { formatDateTime } from './format';

export const API_TOKEN_NEVER_USED = 'nunca usado';

/** The prefix is only the token's start: the ellipsis says so. */
export function apiTokenPrefixLabel(prefix: string): string {
  return `${prefix}…`;
}

export function apiTokenLastUsed(lastUsedAt: string | null): string {
  return lastUsedAt ? formatDateTime(lastUsedAt) : API_TOKEN_NEVER_USED;
}

/**
 * The list after a creation, newest first as the server lists it. Only the listed fields are
 * kept: the secret lives in the one-time box alone, never in the list's state.
 */
export function withCreatedToken(tokens: readonly ApiTokenJson[], created: CreatedApiTokenResponse): ApiTokenJson[] {
  const { id, name, prefix, scopes, createdAt, lastUsedAt } = created;
  return [{ id, name, prefix, scopes, createdAt, lastUsedAt }, ...tokens.filter((t) => t.id !== id)];
}

export function withoutToken(tokens: readonly ApiTokenJson[], id: string): ApiTokenJson[] {
  return tokens.filter((t) => t.id !== id);
}

export interface ApiTokenRefusal {
  message: string;
  /** The address is not confirmed: the form offers to send the confirmation e-mail again. */
  resendVerification: boolean;
}

/** Refusals the form shows in place, in the server's words; null for any other failure. */
export function apiTokenRefusal(f: RequestFailure): ApiTokenRefusal | null {
  if (f.status === 409 && f.code === 'API_TOKEN_LIMIT') return { message: f.message || ACCOUNT_MESSAGES.apiTokenLimit, resendVerification: false };
  if (f.status === 403 && f.code === 'EMAIL_NOT_VERIFIED') return { message: f.message || ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail, resendVerification: true };
  return null;
}
