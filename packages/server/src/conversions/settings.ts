/** The runtime settings conversions obey, read through the settings service (cached a few seconds). */
import { CONVERSION_LIMITS } from '@aabify/shared';
import type { SettingsService } from '../settings/index.js';

export interface ConversionSettings {
  maxFileSize: number;
  maxConcurrent: number;
  /** 0 = unlimited. */
  concurrentPerUser: number;
  retentionDays: number;
  broadcastIntervalMs: number;
  /** A running conversion's wall-clock budget (conversions.maxDurationSeconds). */
  maxDurationSeconds: number;
}

export async function readConversionSettings(settings: SettingsService): Promise<ConversionSettings> {
  const [maxFileSize, maxConcurrent, concurrentPerUser, retentionDays, broadcastIntervalMs, maxDurationSeconds] = await Promise.all([
    settings.get('upload.maxFileSize'),
    settings.get('conversions.maxConcurrent'),
    settings.get('conversions.concurrentPerUser'),
    settings.get('conversions.retentionDays'),
    settings.get('queue.broadcastInterval'),
    settings.get('conversions.maxDurationSeconds'),
  ]);
  return {
    maxFileSize: maxFileSize ?? CONVERSION_LIMITS.defaultMaxFileSize,
    maxConcurrent: maxConcurrent ?? CONVERSION_LIMITS.defaultMaxConcurrent,
    concurrentPerUser: concurrentPerUser ?? 0,
    retentionDays: retentionDays ?? CONVERSION_LIMITS.defaultRetentionDays,
    broadcastIntervalMs: broadcastIntervalMs ?? 30000,
    maxDurationSeconds: maxDurationSeconds ?? 600,
  };
}
