/**
 * Uploads that wait for a start (POST /conversion/upload, status 'pending'): a per-user cap on
 * how many are stored and how many bytes they take (settings upload.maxPendingUploads and
 * upload.maxPendingBytes), and their removal, file and row, once they are an hour old
 * (CONVERSION_LIMITS.pendingUploadMaxAgeMs), by the `conversions:abandoned-uploads` job (jobs/conversions.ts).
 */
import { QueryTypes, type Transaction } from 'sequelize';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { ConversionInputFile } from '../models/Conversion.js';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/index.js';
import type { ConversionSettings } from './settings.js';

export interface PendingUploads {
  count: number;
  bytes: number;
}

type Quota = Pick<ConversionSettings, 'maxPendingUploads' | 'maxPendingBytes'>;

export async function pendingUploadsOf(ctx: Pick<AppContext, 'sequelize'>, userId: string, transaction?: Transaction): Promise<PendingUploads> {
  const [row] = await ctx.sequelize.query<{ count: string; bytes: string | null }>(
    `SELECT count(*) AS count, sum("fileSize") AS bytes FROM conversions WHERE "userId" = :userId AND status = 'pending'`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction },
  );
  return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/**
 * Refuses one more stored upload of `incomingBytes` (0 before the bytes are known: only a full
 * quota is refused then). Call inside a transaction holding the user's row lock to count
 * parallel uploads of one user one after the other.
 */
export async function assertPendingUploadRoom(
  ctx: Pick<AppContext, 'sequelize'>,
  userId: string,
  quota: Quota,
  incomingBytes: number,
  transaction?: Transaction,
): Promise<void> {
  const pending = await pendingUploadsOf(ctx, userId, transaction);
  const details = { pendingUploads: pending.count, maxPendingUploads: quota.maxPendingUploads, pendingBytes: pending.bytes, maxPendingBytes: quota.maxPendingBytes };
  if (pending.count >= quota.maxPendingUploads) {
    throw new ApiError(409, 'PENDING_UPLOADS_LIMIT', CONVERSION_MESSAGES.pendingUploadsLimit(quota.maxPendingUploads), { details });
  }
  const full = incomingBytes === 0 ? pending.bytes >= quota.maxPendingBytes : pending.bytes + incomingBytes > quota.maxPendingBytes;
  if (full) throw new ApiError(409, 'PENDING_UPLOADS_BYTES', CONVERSION_MESSAGES.pendingBytesLimit(quota.maxPendingBytes), { details });
}

interface PurgedRow {
  id: string;
  userId: string;
  apkKey: string | null;
  inputFiles: ConversionInputFile[] | null;
}

/**
 * Deletes pending uploads older than the maximum age, row first: the DELETE re-checks
 * `status = 'pending'` on a row a concurrent start has just locked, so an upload that is being
 * started is never taken. Then their files go (logs and download tokens go with the row).
 */
export async function purgeAbandonedUploads(ctx: Pick<AppContext, 'sequelize' | 'logger'>, storage: Storage, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - CONVERSION_LIMITS.pendingUploadMaxAgeMs);
  const rows = await ctx.sequelize.query<PurgedRow>(
    `DELETE FROM conversions WHERE id IN (
       SELECT id FROM conversions WHERE status = 'pending' AND "createdAt" < :cutoff ORDER BY "createdAt" LIMIT 1000
     ) AND status = 'pending' RETURNING id, "userId", "apkKey", "inputFiles"`,
    { replacements: { cutoff }, type: QueryTypes.SELECT },
  );
  for (const row of rows) {
    for (const key of [row.apkKey, ...(row.inputFiles ?? []).map((f) => f.key)]) {
      if (key) await storage.delete(key).catch((err: unknown) => ctx.logger.warn({ err, conversionId: row.id }, 'abandoned upload file not deleted'));
    }
  }
  if (rows.length) ctx.logger.info({ purged: rows.length }, 'abandoned uploads removed');
  return rows.length;
}
