/**
 * Request rate limits: every request counts; over the limit the answer is 429 RATE_LIMIT
 * with retryAfter (seconds) and a Retry-After header.
 *
 *   const uploads = new RateLimiter({ points: 10, windowMs: 60_000 });
 *   router.post('/convert', rateLimit(uploads, (req) => req.ip), requireAuth(ctx), …);
 */
import type { Request, RequestHandler } from 'express';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import type { RateLimiter } from '../auth/rateLimiter.js';
import { ApiError } from './errors.js';

export { RateLimiter } from '../auth/rateLimiter.js';

/** The client's address (Express resolves it through trusted proxies). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function rateLimit(
  limiter: RateLimiter,
  key: (req: Request) => string | undefined = clientAddress,
  message: string = ACCOUNT_MESSAGES.tooManyRequests,
): RequestHandler {
  return (req, _res, next) => {
    const k = key(req);
    if (k === undefined) return next();
    const state = limiter.peek(k);
    if (state.limited) throw ApiError.tooManyRequests(state.retryAfter, message);
    limiter.consume(k);
    next();
  };
}
