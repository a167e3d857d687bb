/**
 * Request rate limits: every request counts; over the limit the answer is 429 RATE_LIMIT
 * with retryAfter (seconds) and a Retry-After header.
 *
 *   const plans = ctx.rateLimits.limiter('plans', { points: 300, windowMs: 60_000 });
 *   router.get('/public', rateLimit(plans), …);             // no sign-in: per client address
 *   router.get('/current', auth, rateLimit(plans), …);      // after auth: per verified user
 *
 * The key is never a string the client chooses (a bearer token before it is verified would
 * let anyone mint keys without end): the user id once requireAuth verified the credential,
 * else the client address, which Express resolves through the proxies TRUST_PROXY names.
 */
import { isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import type { Limiter } from './rateLimiter.js';
import { ApiError } from './errors.js';

/** The client's address (Express resolves it through trusted proxies). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * An address as a rate-limit key: IPv4 as is (also when IPv4-mapped), IPv6 by its /64
 * network, since one customer line routinely holds a whole /64 to pick addresses from.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/** A client address as the key of a per-address limiter. */
export const addressLimitKey = (address: string): string => `ip:${addressKey(address)}`;

/** The verified user after requireAuth, else the client address. */
export function clientKey(req: Request): string {
  return req.auth ? `user:${req.auth.user.id}` : addressLimitKey(clientAddress(req));
}

export function rateLimit(limiter: Limiter, key: (req: Request) => string = clientKey, message: string = ACCOUNT_MESSAGES.tooManyRequests): RequestHandler {
  return async (req, _res, next) => {
    const state = await limiter.consume(key(req));
    if (state.limited) throw ApiError.tooManyRequests(state.retryAfter, message);
    next();
  };
}
