/**
 * Queue figures clients see: position (1 = next; 0 = processing), how many wait, how many run,
 * the global limit, and estimates from the measured durations of recent completed conversions
 * (120000 ms only while there is no history).
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { CONVERSION_LIMITS } from '@aabify/shared';
import type { Conversion } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import { readConversionSettings, type ConversionSettings } from './settings.js';

export interface QueueSnapshot {
  /** Queued conversions, first in line first. */
  queued: string[];
  processing: number;
  maxConcurrent: number;
  averageProcessingTime: number;
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
  private average?: { at: number; value: number };

  constructor(private readonly deps: { sequelize: Sequelize; settings: SettingsService }) {}

  /** Queue figures of one conversion (position 0 when it is not waiting). */
  async infoOf(c: Pick<Conversion, 'id' | 'status' | 'progress' | 'processingStartedAt'>, settings?: ConversionSettings): Promise<QueueInfo> {
    const s = settings ?? (await readConversionSettings(this.deps.settings));
    if (c.status !== 'queued' && c.status !== 'processing') {
      return { queuePosition: 0, totalInQueue: 0, estimatedTime: 0, averageProcessingTime: await this.averageProcessingTime(), currentlyProcessing: 0, maxConcurrent: s.maxConcurrent };
    }
    const snapshot = await this.snapshot(s.maxConcurrent);
    const info = queueInfo(snapshot, c.id);
    if (c.status === 'processing') info.estimatedTime = estimateRemaining(c.progress, c.processingStartedAt, snapshot.averageProcessingTime);
    return info;
  }

  async averageProcessingTime(): Promise<number> {
    if (this.average && Date.now() - this.average.at < AVERAGE_CACHE_MS) return this.average.value;
    const [row] = await this.deps.sequelize.query<{ avg: string | null }>(
      `SELECT avg(ms) AS avg FROM (
         SELECT extract(epoch FROM ("completedAt" - "processingStartedAt")) * 1000 AS ms
         FROM conversions
         WHERE status = 'completed' AND "processingStartedAt" IS NOT NULL AND "completedAt" IS NOT NULL
         ORDER BY "completedAt" DESC LIMIT ${RECENT}
       ) recent`,
      { type: QueryTypes.SELECT },
    );
    const value = row?.avg !== null && row?.avg !== undefined ? Math.max(1, Math.round(Number(row.avg))) : CONVERSION_LIMITS.defaultAverageProcessingTimeMs;
    this.average = { at: Date.now(), value };
    return value;
  }

  invalidate(): void {
    this.average = undefined;
  }

  async snapshot(maxConcurrent: number): Promise<QueueSnapshot> {
    const rows = await this.deps.sequelize.query<{ id: string; status: string }>(
      `SELECT id, status FROM conversions WHERE status IN ('queued', 'processing') ORDER BY "queuedAt", id`,
      { type: QueryTypes.SELECT },
    );
    return {
      queued: rows.filter((r) => r.status === 'queued').map((r) => r.id),
      processing: rows.filter((r) => r.status === 'processing').length,
      maxConcurrent,
      averageProcessingTime: await this.averageProcessingTime(),
    };
  }
}

/** Position 1 waits for one round of the running slots' worth of work, and so on. */
export function estimateWait(position: number, s: Pick<QueueSnapshot, 'maxConcurrent' | 'averageProcessingTime'>): number {
  if (position <= 0) return s.averageProcessingTime;
  return (Math.floor((position - 1) / Math.max(1, s.maxConcurrent)) + 1) * s.averageProcessingTime;
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

/** The figures of whatever stands at `position` (1 = next; 0 = not waiting), for callers that walk the line. */
export function queueInfoAt(snapshot: QueueSnapshot, position: number): QueueInfo {
  return {
    queuePosition: position,
    totalInQueue: snapshot.queued.length,
    estimatedTime: estimateWait(position, snapshot),
    averageProcessingTime: snapshot.averageProcessingTime,
    currentlyProcessing: snapshot.processing,
    maxConcurrent: snapshot.maxConcurrent,
  };
}
