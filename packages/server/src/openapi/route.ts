/**
 * One entry per Express route: what the OpenAPI document says of it. Adding a route to the API
 * means adding one `route(...)` line to the file of its area in openapi/paths/ — the contract test
 * (test/openapi.test.ts) names any route missing here, or documented here and not served.
 *
 *   route('get', '/conversion/status/:id', 'Conversões', 'Status de uma conversão', {
 *     auth: 'user', answer: ref('Conversion'), errors: [404],
 *   })
 */
import type { Schema } from 'yup';
import type { ApiTokenPermission } from '@aabify/shared';
import type { JsonSchema } from './jsonSchema.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `none` (public), `user` (session JWT or `aab_` API token), `admin` (the same,
 * of an administrator), `token-or-query` (bearer or `?token=`, for links and event streams).
 */
export type RouteAuth = 'none' | 'user' | 'admin' | 'token-or-query';

/** A success answer: JSON with this schema, another media type (or one of several), or no body (204). */
export type Answer = JsonSchema | { media: string | string[]; schema?: JsonSchema; description?: string } | null;

export interface RouteOptions {
  auth: RouteAuth;
  /**
   * What an API token needs here, as the route's requireAuth says (http/guards.ts); absent on an
   * authenticated route: a session's alone (API tokens get 403). Never on admin routes.
   */
  token?: ApiTokenPermission | 'any';
  /** The JSON body: the yup schema the route validates with, or a JSON Schema. */
  body?: Schema | JsonSchema;
  /** A multipart upload: the form's fields. */
  multipart?: JsonSchema;
  /** The query string: the yup schema the route validates with, or a JSON Schema object. */
  query?: Schema | JsonSchema;
  /** The success answer (200), or answers by status. */
  answer?: Answer;
  answers?: Record<number, Answer>;
  /** Error statuses beyond those the guards imply (400 with a body or query, 401/403 by auth, 429 when rate limited, 500). */
  errors?: number[];
  rateLimited?: boolean;
  description?: string;
}

export interface RouteDoc extends RouteOptions {
  method: HttpMethod;
  /** Express path under /api, e.g. `/conversion/status/:id`. */
  path: string;
  tag: string;
  summary: string;
}

export function route(method: HttpMethod, path: string, tag: string, summary: string, options: RouteOptions): RouteDoc {
  return { method, path, tag, summary, ...options };
}
