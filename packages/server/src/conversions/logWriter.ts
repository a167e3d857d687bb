/**
 * Writes a conversion's log: each entry stored (in the order written, per conversion) and sent
 * live to its watchers. A failed write is logged and never fails the conversion.
 */
import type { ConversionLogLevel } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import type { ConversionEvents } from './events.js';
import { appendLog } from './logs.js';

export interface ConversionLogWriterDeps {
  models: Models;
  events: ConversionEvents;
  logger: Logger;
}

export class ConversionLogWriter {
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ConversionLogWriterDeps) {}

  /** Appends an entry after the conversion's earlier ones and sends it live. */
  write(conversionId: string, level: ConversionLogLevel, message: string, step?: string): Promise<void> {
    const prev = this.chains.get(conversionId) ?? Promise.resolve();
    const next = prev
      .then(async () => {
        const entry = await appendLog(this.deps.models, conversionId, { level, message, step });
        this.deps.events.update({ type: 'log', conversionId, timestamp: entry.timestamp, log: entry, message: entry.message, step: entry.step ?? undefined });
      })
      .catch((err: unknown) => this.deps.logger.warn({ err, conversionId }, 'conversion log not written'));
    this.chains.set(conversionId, next);
    void next.then(() => {
      if (this.chains.get(conversionId) === next) this.chains.delete(conversionId);
    });
    return next;
  }

  /** Resolves once every entry written so far for the conversion is stored. */
  async flush(conversionId: string): Promise<void> {
    await this.chains.get(conversionId);
  }

  /** Resolves once every pending entry is stored (shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }
}
