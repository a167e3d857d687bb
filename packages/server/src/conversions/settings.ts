/** The runtime settings conversions obey, read through the settings service (cached a few seconds). */
import { CONVERSION_LIMITS } from '@aabify/shared';
import type { SettingsService } from '../settings/index.js';

export interface ConversionSettings {
  maxFileSize: number;
  maxConcurrent: number;
  /** 0 = unlimited. */
  concurrentPerUser: number;
  /** One user's conversions queued or processing at once (conversions.maxActivePerUser). */
  maxActivePerUser: number;
  retentionDays: number;
  broadcastIntervalMs: number;
  /** Stored, not-yet-started uploads per user (POST /conversion/upload). */
  maxPendingUploads: number;
  /** Their bytes per user; upload.maxPendingBytes 0 resolved to its automatic value. */
  maxPendingBytes: number;
  /** A running conversion's wall-clock budget (conversions.maxDurationSeconds). */
  maxDurationSeconds: number;
}

/** upload.maxPendingBytes 0 = automatic: twice the upload limit, or 1 GB when uploads are unlimited. */
export function resolvePendingBytes(setting: number, maxFileSize: number): number {
  if (setting > 0) return setting;
  return maxFileSize > 0 ? CONVERSION_LIMITS.pendingBytesFactor * maxFileSize : CONVERSION_LIMITS.pendingBytesWhenUnlimited;
}

export async function readConversionSettings(settings: SettingsService): Promise<ConversionSettings> {
  const [maxFileSize, maxConcurrent, concurrentPerUser, maxActivePerUser, retentionDays, broadcastIntervalMs, maxPendingUploads, maxPendingBytes, maxDurationSeconds] = await Promise.all([
    settings.get('upload.maxFileSize'),
    settings.get('conversions.maxConcurrent'),
    settings.get('conversions.concurrentPerUser'),
    settings.get('conversions.maxActivePerUser'),
    settings.get('conversions.retentionDays'),
    settings.get('queue.broadcastInterval'),
    settings.get('upload.maxPendingUploads'),
    settings.get('upload.maxPendingBytes'),
    settings.get('conversions.maxDurationSeconds'),
  ]);
  const uploadLimit = maxFileSize ?? CONVERSION_LIMITS.defaultMaxFileSize;
  return {
    maxFileSize: uploadLimit,
    maxConcurrent: maxConcurrent ?? CONVERSION_LIMITS.defaultMaxConcurrent,
    concurrentPerUser: concurrentPerUser ?? 0,
    maxActivePerUser: maxActivePerUser ?? CONVERSION_LIMITS.defaultMaxActivePerUser,
    retentionDays: retentionDays ?? CONVERSION_LIMITS.defaultRetentionDays,
    broadcastIntervalMs: broadcastIntervalMs ?? 30000,
    maxPendingUploads: maxPendingUploads ?? CONVERSION_LIMITS.defaultMaxPendingUploads,
    maxPendingBytes: resolvePendingBytes(maxPendingBytes ?? 0, uploadLimit),
    maxDurationSeconds: maxDurationSeconds ?? 600,
  };
}
