/**
 * A per-user cap on conversions in the queue (queued + processing; setting
 * conversions.maxActivePerUser). Every queued conversion's job claims again each second
 * through the global claim lock (runner.ts), so one user with thousands queued would slow the
 * queue of everyone; subscribers and admins, who reserve no credit, had nothing else bounding
 * it. Pending uploads have their own quota (pendingUploads.ts) and are not counted here.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';

export async function activeConversionsOf(ctx: Pick<AppContext, 'sequelize'>, userId: string, transaction?: Transaction): Promise<number> {
  const [row] = await ctx.sequelize.query<{ n: string }>(
    `SELECT count(*) AS n FROM conversions WHERE "userId" = :userId AND status IN ('queued', 'processing')`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction },
  );
  return Number(row?.n ?? 0);
}

/**
 * Refuses one more queued conversion of `userId` (429 TOO_MANY_ACTIVE_CONVERSIONS). Call inside
 * the transaction that queues it, holding the user's row lock, so parallel submissions of one
 * user count one after the other and cannot pass the cap together.
 */
export async function assertActiveConversionRoom(ctx: Pick<AppContext, 'sequelize'>, userId: string, max: number, transaction: Transaction): Promise<void> {
  const active = await activeConversionsOf(ctx, userId, transaction);
  if (active < max) return;
  throw new ApiError(429, 'TOO_MANY_ACTIVE_CONVERSIONS', CONVERSION_MESSAGES.tooManyActiveConversions(max), {
    retryAfter: CONVERSION_LIMITS.activeConversionsRetryAfterSeconds,
    details: { activeConversions: active, maxActiveConversions: max },
  });
}
