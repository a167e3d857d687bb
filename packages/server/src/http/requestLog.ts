/**
 * The request log: one line per answered request (method, url, status, ms). Some URLs carry
 * secrets — a download link's token in its path, an event stream's ticket or an e-mailed link's
 * token in `?token=` — and which parts of a URL are secret is a property of the route that serves
 * it, not of how the URL looks: such a route declares them with `secretsInUrl(...)` as its first
 * handler, and every line about it prints those values as '[redacted]'. Express matches routes
 * whatever the path's case, so `/api/Download/File/<token>` is served and redacted alike.
 *
 * Beside that, on every route, query values under a credential's name (token, password…) are
 * redacted in case a client put one where no route takes it, and a request no route matched is
 * logged without its query.
 */
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logger.js';

export const REDACTED = '[redacted]';
const HEALTH_PATH = '/api/health';

/** Query names that never reach a log with their value, whatever the route. */
const CREDENTIAL_QUERY_NAMES = new Set(['token', 'ticket', 'access_token', 'api_key', 'apikey', 'key', 'secret', 'password']);

/** The parts of a route's URL that are secrets. */
export interface UrlSecrets {
  /** Route parameters whose values are secrets (`/file/:token` → ['token']). */
  params?: readonly string[];
  /** Query parameters whose values are secrets. */
  query?: readonly string[];
}

interface DeclaredSecrets {
  /** The secret parameters' values, as matched. */
  values: string[];
  query: Set<string>;
}

/** What the route a request matched declared; read when its line is written, after routing restored req.params. */
const declared = new WeakMap<Request, DeclaredSecrets>();

/** Declares the route's secrets; first in the route's handlers, so it runs whenever the route matches. */
export function secretsInUrl(secrets: UrlSecrets): RequestHandler {
  const query = new Set((secrets.query ?? []).map((q) => q.toLowerCase()));
  return (req, _res, next) => {
    const values = (secrets.params ?? []).map((name) => req.params[name]).filter((v): v is string => typeof v === 'string' && v !== '');
    declared.set(req, { values, query });
    next();
  };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // Malformed escapes are compared as sent.
    return text;
  }
}

/** The URL of a request as a log line may print it. */
export function loggedUrl(req: Request): string {
  // originalUrl: by the time a line is written a mounted router may have left req.url without its /api.
  const url = req.originalUrl;
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const secrets = declared.get(req);
  const path = secrets?.values.length ? rawPath.split('/').map((segment) => (secrets.values.includes(decoded(segment)) ? REDACTED : segment)).join('/') : rawPath;
  // No route matched: nothing says what the query holds.
  if (q === -1 || !req.route) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      const key = decoded(name).toLowerCase();
      return secrets?.query.has(key) || CREDENTIAL_QUERY_NAMES.has(key) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

export function requestLog(logger: Logger): RequestHandler {
  // A line holds only what is built below (the URL through loggedUrl), none of the logger's
  // redaction paths can match it, and that redaction was half of a line's cost: this child
  // skips it. The child's own level is open; the parent's level (changed at run time by the
  // logging.level setting) decides, checked before anything is built.
  const lines = logger.child({}, { redact: [], level: 'trace' });
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      // Health probes arrive every few seconds; they are only worth a line when debugging.
      const path = req.originalUrl;
      const level = path === HEALTH_PATH || path.startsWith(`${HEALTH_PATH}?`) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const ms = Math.round((performance.now() - started) * 10) / 10;
      lines[level]({ method: req.method, url: loggedUrl(req), status: res.statusCode, ms }, 'request');
    });
    next();
  };
}
