/** The only way a conversion leaves the server: storage keys, worker names and error internals stay in. */
import {
  CONVERSION_LIMITS,
  outputFileName,
  prePublicationChecklist,
  type ApiConversion,
  type ConversionLogEntry,
  type ConversionStartResponse,
} from '@aabify/shared';
import type { Conversion, Models } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import type { QueueInfo, QueueStats } from './queueStats.js';
import { readLogs } from './logs.js';
import { readConversionSettings } from './settings.js';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
const DAY = 86_400_000;

export interface PresentOptions {
  queue?: QueueInfo;
  retentionDays: number;
  logs?: ConversionLogEntry[];
}

const NO_QUEUE = (averageProcessingTime: number): QueueInfo => ({
  queuePosition: 0,
  totalInQueue: 0,
  estimatedTime: 0,
  averageProcessingTime,
  currentlyProcessing: 0,
  maxConcurrent: CONVERSION_LIMITS.defaultMaxConcurrent,
});

export function filesExpireAt(c: Conversion, retentionDays: number): Date | null {
  if (c.filesPurgedAt || c.status === 'pending' || c.status === 'queued' || c.status === 'processing') return null;
  const from = c.completedAt ?? c.updatedAt;
  return new Date(from.getTime() + retentionDays * DAY);
}

export function presentConversion(c: Conversion, opts: PresentOptions): ApiConversion {
  const q = opts.queue ?? NO_QUEUE(CONVERSION_LIMITS.defaultAverageProcessingTimeMs);
  const active = c.status === 'queued' || c.status === 'processing' || c.status === 'pending';
  const duration = c.processingStartedAt && c.completedAt ? c.completedAt.getTime() - c.processingStartedAt.getTime() : null;
  const filename = outputFileName(c);
  return {
    id: c.id,
    _id: c.id,
    conversionId: c.id,
    userId: c.userId,
    fileName: c.fileName,
    originalFileName: c.fileName,
    kind: c.kind,
    filename,
    fileSize: c.fileSize,
    status: c.status,
    progress: Math.max(0, Math.min(100, c.progress)),
    step: c.step,
    options: c.options,
    error: c.error,
    errorCode: c.errorCode,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    queuedAt: iso(c.queuedAt),
    processingStartedAt: iso(c.processingStartedAt),
    completedAt: iso(c.completedAt),
    duration,
    originalSize: c.fileSize,
    convertedSize: c.aabSize,
    aabFile: c.status === 'completed' && c.aabSize !== null ? { filename, size: c.aabSize } : null,
    canDownload: c.canDownload,
    expiresIn: CONVERSION_LIMITS.downloadTokenTtlSeconds,
    filesExpireAt: iso(filesExpireAt(c, opts.retentionDays)),
    report: c.report,
    apks: c.apksReport,
    // The checklist judges a bundle for Google Play: an AAB → APK conversion makes none.
    checklist: c.status === 'completed' && c.report && c.kind === 'apk-to-aab' ? prePublicationChecklist(c.report) : null,
    queuePosition: active ? q.queuePosition : null,
    totalInQueue: q.totalInQueue,
    estimatedTime: active ? q.estimatedTime : null,
    averageProcessingTime: q.averageProcessingTime,
    currentlyProcessing: q.currentlyProcessing,
    maxConcurrent: q.maxConcurrent,
    lastUpdate: c.updatedAt.toISOString(),
    ...(opts.logs ? { logs: opts.logs } : {}),
  };
}

export function presentStart(c: Conversion, q: QueueInfo, message: string): ConversionStartResponse {
  return {
    conversionId: c.id,
    fileName: c.fileName,
    fileSize: c.fileSize,
    status: c.status,
    queuePosition: q.queuePosition,
    estimatedTime: q.estimatedTime,
    message,
  };
}

/** A conversion as its viewers get it: with its queue figures now, and its log when asked. */
export async function describeConversion(
  ctx: { models: Models; settings: SettingsService; conversionStats: QueueStats },
  c: Conversion,
  extra: { logs?: boolean } = {},
): Promise<ApiConversion> {
  const settings = await readConversionSettings(ctx.settings);
  const queue = await ctx.conversionStats.infoOf(c, settings);
  const logs = extra.logs ? await readLogs(ctx.models, c.id) : undefined;
  return presentConversion(c, { queue, retentionDays: settings.retentionDays, logs });
}
