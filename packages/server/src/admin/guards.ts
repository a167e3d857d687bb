/**
 * The guard every admin route starts with: rate limit → requireAuth → requireAdmin (403 for
 * anyone else). Each admin sub-router applies it itself, so /admin/plans (mounted by the
 * payments routes) is never guarded twice.
 */
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { requireAdmin, requireAuth } from '../http/guards.js';
import type { Limiter } from '../http/rateLimiter.js';
import { rateLimit } from '../http/rateLimit.js';

/** requireAuth first: the limit counts per verified admin, never per presented token. */
export function adminGuard(ctx: AppContext, limiter: Limiter): RequestHandler[] {
  return [requireAuth(ctx), rateLimit(limiter), requireAdmin];
}

/** Generous: the dashboard refreshes every 30 s and live lists poll; this only stops floods. */
export function adminRateLimiter(ctx: AppContext): Limiter {
  return ctx.rateLimits.limiter('admin', { points: 1200, windowMs: 60_000 });
}

export function pagination(total: number, page: number, limit: number) {
  return { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

/** A search text as a LIKE pattern matching it anywhere (wildcards in the text are literal). */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
