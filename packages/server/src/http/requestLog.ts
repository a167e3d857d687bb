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
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      // Health probes arrive every few seconds; they are only worth a line when debugging.
      if (req.path === '/api/health') logger.debug(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
