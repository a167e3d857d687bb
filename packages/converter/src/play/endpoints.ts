/**
 * Where the OAuth token and the Android Publisher API are asked. Google's by default; tests
 * (and a proxy, if an operator needs one) set GOOGLE_OAUTH_TOKEN_URL and GOOGLE_PLAY_API_URL.
 * A key file's own token_uri is honoured only when it is Google's: a key that names another
 * host would otherwise make the server post signed assertions wherever the file says.
 */
import type { ServiceAccountKey } from './serviceAccount.js';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const GOOGLE_PLAY_API_URL = 'https://androidpublisher.googleapis.com';
export const ANDROID_PUBLISHER_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

export interface PlayEndpoints {
  /** GOOGLE_OAUTH_TOKEN_URL: overrides the key file's token_uri. */
  tokenUrl?: string;
  /** GOOGLE_PLAY_API_URL: scheme, host and port of the API (paths are the documented ones). */
  apiUrl?: string;
}

const GOOGLE_TOKEN_HOSTS = new Set(['oauth2.googleapis.com', 'accounts.google.com', 'www.googleapis.com']);

export function playEndpointsFromEnv(env: NodeJS.ProcessEnv = process.env): PlayEndpoints {
  return {
    ...(env.GOOGLE_OAUTH_TOKEN_URL ? { tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL } : {}),
    ...(env.GOOGLE_PLAY_API_URL ? { apiUrl: env.GOOGLE_PLAY_API_URL } : {}),
  };
}

export function tokenUrlFor(key: ServiceAccountKey, endpoints: PlayEndpoints): string {
  if (endpoints.tokenUrl) return endpoints.tokenUrl;
  if (key.tokenUri) {
    try {
      const u = new URL(key.tokenUri);
      if (u.protocol === 'https:' && GOOGLE_TOKEN_HOSTS.has(u.hostname)) return u.toString();
    } catch {
      // not a URL: Google's default
    }
  }
  return GOOGLE_TOKEN_URL;
}

export function apiBaseFor(endpoints: PlayEndpoints): string {
  return (endpoints.apiUrl ?? GOOGLE_PLAY_API_URL).replace(/\/+$/, '');
}

/** `http(s)://host[:port]` with no path, query or credentials (config validation). */
export function isEndpointUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
  } catch {
    return false;
  }
}
