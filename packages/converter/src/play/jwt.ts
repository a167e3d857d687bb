/**
 * The JWT-bearer assertion of RFC 7523 as Google's token endpoint takes it: RS256 over
 * `{alg, typ, kid}.{iss, scope, aud, iat, exp}`, signed with the service account's key.
 */
import { createSign } from 'node:crypto';
import type { ServiceAccountKey } from './serviceAccount.js';

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** Google accepts assertions valid for at most an hour. */
export const ASSERTION_LIFETIME_S = 3600;

export function signAssertion(key: ServiceAccountKey, aud: string, scope: string, now: number = Math.floor(Date.now() / 1000)): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) };
  const claims = { iss: key.clientEmail, scope, aud, iat: now, exp: now + ASSERTION_LIFETIME_S };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key.privateKey);
  return `${input}.${base64url(signature)}`;
}
