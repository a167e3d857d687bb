/**
 * The request log: one line per answered request (method, path, status, duration). URLs can
 * carry secrets — the event stream's `?token=` ticket, a download link's token — so every URL
 * a log line prints goes through redactUrl first.
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';

/** Query parameters whose values never reach a log. */
const SECRET_PARAMS = new Set(['token', 'ticket', 'access_token', 'api_key', 'apikey', 'key', 'secret', 'password']);
/** Path segments that are secrets themselves: /api/download/file/{token}. */
const SECRET_PATHS = [/^(\/api\/download\/file\/)[^/?#]+/];
export const REDACTED = '[redacted]';
const HEALTH_PATH = '/api/health';

/** The URL with secret query values and path tokens replaced by '[redacted]'. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  for (const re of SECRET_PATHS) path = path.replace(re, `$1${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as sent.
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

export function requestLog(logger: Logger): RequestHandler {
  // A line holds only what is built below (the URL through redactUrl), none of the logger's
  // redaction paths can match it, and that redaction was half of a line's cost: this child
  // skips it. The child's own level is open; the parent's level (changed at run time by the
  // logging.level setting) decides, checked before anything is built.
  const lines = logger.child({}, { redact: [], level: 'trace' });
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      // Health probes arrive every few seconds; they are only worth a line when debugging.
      // (originalUrl: by now a mounted router may have left req.url without its /api.)
      const url = req.originalUrl;
      const level = url === HEALTH_PATH || url.startsWith(`${HEALTH_PATH}?`) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const ms = Math.round((performance.now() - started) * 10) / 10;
      lines[level]({ method: req.method, url: redactUrl(url), status: res.statusCode, ms }, 'request');
    });
    next();
  };
}
