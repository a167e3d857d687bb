import type { ApiTokenJson } from '@aabify/shared';
import type { ApiToken } from '../models/index.js';

/** Never the secret nor its hash: a token is recognised by its name and prefix. */
export function presentApiToken(token: ApiToken): ApiTokenJson {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: [...token.scopes],
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt ? token.lastUsedAt.toISOString() : null,
  };
}
