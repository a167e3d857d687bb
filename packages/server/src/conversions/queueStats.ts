/**
 * Queue figures clients see: position (1 = next; 0 = processing), how many wait, how many run,
 * the global limit, and estimates from the measured durations of recent completed conversions
 * by input size: their milliseconds per byte times this conversion's size (a 1 MB APK is not
 * told the wait of a 90 MB one). 120000 ms only while there is no history.
 */
import { CONVERSION_LIMITS } from '@aabify/shared';
import type { ReadRows } from '../db/readLane.js';
import type { Conversion } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import { readConversionSettings, type ConversionSettings } from './settings.js';

/** What recent completed conversions measured: their mean duration, and milliseconds per input byte. */
export interface DurationModel {
  averageProcessingTime: number;
  /** Null while no recent conversion recorded a size. */
  msPerByte: number | null;
}

export interface QueueSnapshot extends DurationModel {
  /** Queued conversions, first in line first. */
  queued: string[];
  /** The input size of each queued conversion, in the same order. */
  queuedSizes: number[];
  processing: number;
  maxConcurrent: number;
}

/** How long a conversion of this input size is expected to take. */
export function expectedDuration(model: DurationModel, fileSize: number | null | undefined): number {
  if (model.msPerByte === null || !fileSize || fileSize <= 0) return model.averageProcessingTime;
  return Math.max(1, Math.round(model.msPerByte * fileSize));
}

export interface QueueInfo {
  queuePosition: number;
  totalInQueue: number;
  estimatedTime: number;
  averageProcessingTime: number;
  currentlyProcessing: number;
  maxConcurrent: number;
}

const RECENT = 20;
const AVERAGE_CACHE_MS = 5000;

export class QueueStats {
  /** `measured`: from completed conversions (not the default); `stale`: one completed here since. */
  private model?: { at: number; value: DurationModel; measured: boolean; stale: boolean };
  /** The durations being read: callers meanwhile share it. */
  private readingDurations?: Promise<DurationModel>;
  /**
   * The snapshot being read: callers meanwhile share it (a history page's rows, a burst of
   * submissions and status reads) instead of each reading every queued row again. A change to
   * the queue in this process forgets it, so a caller after the change reads anew.
   */
  private reading?: { maxConcurrent: number; snapshot: Promise<QueueSnapshot> };

  /** `read`: the process's read lane (db/readLane.ts), apart from the application pool. */
  constructor(private readonly deps: { read: ReadRows; settings: SettingsService }) {}

  /** Queue figures of one conversion (position 0 when it is not waiting). */
  async infoOf(c: Pick<Conversion, 'id' | 'status' | 'progress' | 'processingStartedAt' | 'fileSize'>, settings?: ConversionSettings): Promise<QueueInfo> {
    const s = settings ?? (await readConversionSettings(this.deps.settings));
    if (c.status !== 'queued' && c.status !== 'processing') {
      return { queuePosition: 0, totalInQueue: 0, estimatedTime: 0, averageProcessingTime: await this.averageProcessingTime(), currentlyProcessing: 0, maxConcurrent: s.maxConcurrent };
    }
    const snapshot = await this.snapshot(s.maxConcurrent);
    const info = queueInfo(snapshot, c.id);
    if (c.status === 'processing') info.estimatedTime = estimateRemaining(c.progress, c.processingStartedAt, expectedDuration(snapshot, c.fileSize));
    return info;
  }

  async averageProcessingTime(): Promise<number> {
    return (await this.durations()).averageProcessingTime;
  }

  /**
   * Mean duration and milliseconds per input byte of the last completed conversions (cached a
   * few seconds). Once measured, an older model is answered while the new one is read (one read
   * for everyone): under load a conversion completes every few hundred milliseconds, and each
   * status read would otherwise wait for the same figures again.
   */
  async durations(): Promise<DurationModel> {
    const model = this.model;
    if (model && !model.stale && Date.now() - model.at < AVERAGE_CACHE_MS) return model.value;
    const reading = (this.readingDurations ??= this.readDurations().finally(() => (this.readingDurations = undefined)));
    if (!model?.measured) return reading;
    reading.catch(() => undefined); // Answered from the older model; the next call reads again.
    return model.value;
  }

  private async readDurations(): Promise<DurationModel> {
    const [row] = await this.deps.read<{ avg: string | null; ms: string | null; bytes: string | null }>(
      `SELECT avg(ms) AS avg, sum(ms) FILTER (WHERE size > 0) AS ms, sum(size) FILTER (WHERE size > 0) AS bytes FROM (
         SELECT extract(epoch FROM ("completedAt" - "processingStartedAt")) * 1000 AS ms, "fileSize" AS size
         FROM conversions
         WHERE status = 'completed' AND "processingStartedAt" IS NOT NULL AND "completedAt" IS NOT NULL
         ORDER BY "completedAt" DESC LIMIT ${RECENT}
       ) recent`,
    );
    const averageProcessingTime = row?.avg !== null && row?.avg !== undefined ? Math.max(1, Math.round(Number(row.avg))) : CONVERSION_LIMITS.defaultAverageProcessingTimeMs;
    const bytes = Number(row?.bytes ?? 0);
    const value: DurationModel = { averageProcessingTime, msPerByte: bytes > 0 ? Math.max(0, Number(row?.ms ?? 0)) / bytes : null };
    this.model = { at: Date.now(), value, measured: row?.avg !== null && row?.avg !== undefined, stale: false };
    return value;
  }

  /** A conversion completed here: the next call reads the figures again (the first measured ones are waited for). */
  invalidate(): void {
    if (this.model) this.model.stale = true;
  }

  /** The queue changed here: the next snapshot is read after the change. */
  queueChanged(): void {
    this.reading = undefined;
  }

  snapshot(maxConcurrent: number): Promise<QueueSnapshot> {
    if (this.reading?.maxConcurrent === maxConcurrent) return this.reading.snapshot;
    const reading = { maxConcurrent, snapshot: this.readSnapshot(maxConcurrent) };
    this.reading = reading;
    const done = () => {
      if (this.reading === reading) this.reading = undefined;
    };
    reading.snapshot.then(done, done);
    return reading.snapshot;
  }

  private async readSnapshot(maxConcurrent: number): Promise<QueueSnapshot> {
    const rows = await this.deps.read<{ id: string; status: string; fileSize: string | number | null }>(
      `SELECT id, status, "fileSize" FROM conversions WHERE status IN ('queued', 'processing') ORDER BY "queuedAt", id`,
    );
    const queued = rows.filter((r) => r.status === 'queued');
    return {
      queued: queued.map((r) => r.id),
      queuedSizes: queued.map((r) => Number(r.fileSize ?? 0)),
      processing: rows.filter((r) => r.status === 'processing').length,
      maxConcurrent,
      ...(await this.durations()),
    };
  }
}

/**
 * Until a conversion at `position` is done: a mean conversion's time per round of the running
 * slots ahead of it, then its own expected time for its size.
 */
export function estimateWait(position: number, s: Pick<QueueSnapshot, 'maxConcurrent'> & DurationModel, fileSize?: number): number {
  const own = expectedDuration(s, fileSize);
  if (position <= 0) return own;
  return Math.floor((position - 1) / Math.max(1, s.maxConcurrent)) * s.averageProcessingTime + own;
}

/** Time left of a running conversion, from its progress and elapsed time. */
export function estimateRemaining(progress: number, startedAt: Date | null, average: number, now = Date.now()): number {
  const elapsed = startedAt ? Math.max(0, now - startedAt.getTime()) : 0;
  if (progress >= 10 && elapsed > 0) return Math.max(0, Math.round((elapsed / progress) * (100 - progress)));
  return Math.max(0, average - elapsed);
}

export function queueInfo(snapshot: QueueSnapshot, conversionId: string): QueueInfo {
  const index = snapshot.queued.indexOf(conversionId);
  return queueInfoAt(snapshot, index >= 0 ? index + 1 : 0);
}

/** A queue_position message's figures (the live message and the late subscriber's snapshot say the same). */
export function queuePositionFields(q: QueueInfo) {
  return {
    position: q.queuePosition,
    queuePosition: q.queuePosition,
    estimatedTime: q.estimatedTime,
    totalWaiting: q.totalInQueue,
    averageProcessingTime: q.averageProcessingTime,
    currentlyProcessing: q.currentlyProcessing,
    maxConcurrent: q.maxConcurrent,
  };
}

/** The figures of whatever stands at `position` (1 = next; 0 = not waiting), for callers that walk the line. */
export function queueInfoAt(snapshot: QueueSnapshot, position: number): QueueInfo {
  return {
    queuePosition: position,
    totalInQueue: snapshot.queued.length,
    estimatedTime: estimateWait(position, snapshot, position > 0 ? snapshot.queuedSizes[position - 1] : undefined),
    averageProcessingTime: snapshot.averageProcessingTime,
    currentlyProcessing: snapshot.processing,
    maxConcurrent: snapshot.maxConcurrent,
  };
}
