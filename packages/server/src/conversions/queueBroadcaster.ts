/**
 * Tells every waiting conversion its place in line: after each change to the queue (debounced,
 * so a burst of submissions costs one broadcast), and in processes that run conversions, every
 * `queue.broadcastInterval` as well (with the safety-net work passed as `onTick`). It also keeps
 * the latest `conversions.maxConcurrent`, the size the worker pool grows to.
 */
import { CONVERSION_LIMITS, type ConversionUpdate } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { SettingsService } from '../settings/index.js';
import type { ConversionEvents } from './events.js';
import { queueInfoAt, queuePositionFields, type QueueStats } from './queueStats.js';
import { readConversionSettings } from './settings.js';

export interface QueueBroadcasterDeps {
  stats: QueueStats;
  events: ConversionEvents;
  settings: SettingsService;
  logger: Logger;
}

const DEBOUNCE_MS = 100;
const TICK_MS = 1000;

export class QueueBroadcaster {
  /** conversions.maxConcurrent as last read. */
  maxConcurrent: number = CONVERSION_LIMITS.defaultMaxConcurrent;
  private debounce?: NodeJS.Timeout;
  private ticker?: NodeJS.Timeout;
  private lastPeriodic = 0;
  private closed = false;

  constructor(private readonly deps: QueueBroadcasterDeps) {}

  /** Something changed in the queue: every waiting conversion hears its new position soon. */
  changed(): void {
    this.deps.stats.queueChanged();
    if (this.closed || this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.broadcast().catch((err: unknown) => this.deps.logger.warn({ err }, 'queue broadcast failed'));
    }, DEBOUNCE_MS);
    this.debounce.unref();
  }

  async broadcast(): Promise<void> {
    const { stats, events } = this.deps;
    const settings = await readConversionSettings(this.deps.settings);
    this.maxConcurrent = settings.maxConcurrent;
    const snapshot = await stats.snapshot(settings.maxConcurrent);
    const now = new Date().toISOString();
    // Walked in line order: each position is its index (a lookup per id would be O(n²) over a long queue).
    const updates: ConversionUpdate[] = [];
    for (const [index, id] of snapshot.queued.entries()) {
      // The snapshot was read before a message that started it: 'queued' now would move it back.
      if (events.leftQueue(id)) continue;
      const q = queueInfoAt(snapshot, index + 1);
      updates.push({
        type: 'queue_position',
        conversionId: id,
        timestamp: now,
        status: 'queued',
        ...queuePositionFields(q),
      });
    }
    events.updateMany(updates);
  }

  /** Broadcasts every `queue.broadcastInterval`, then runs `onTick` (processes that run conversions). */
  async startPeriodic(onTick: () => Promise<unknown>): Promise<void> {
    this.maxConcurrent = (await readConversionSettings(this.deps.settings)).maxConcurrent;
    this.ticker = setInterval(() => void this.tick(onTick), TICK_MS);
    this.ticker.unref();
  }

  private async tick(onTick: () => Promise<unknown>): Promise<void> {
    try {
      const settings = await readConversionSettings(this.deps.settings);
      if (Date.now() - this.lastPeriodic < settings.broadcastIntervalMs) return;
      this.lastPeriodic = Date.now();
      await this.broadcast();
      await onTick();
    } catch (err) {
      this.deps.logger.warn({ err }, 'periodic queue work failed');
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.ticker);
    clearTimeout(this.debounce);
  }
}
