/**
 * Writes a conversion's log: each entry stored (in the order written, per conversion) and sent
 * live to its watchers, worded for its owner (logText.ts: sizes, the uploaded files' names). A
 * failed write is logged and never fails the conversion.
 */
import type { ConversionLogLevel } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import type { ConversionEvents } from './events.js';
import { appendLog } from './logs.js';
import { readableLogMessage, type UploadedNames } from './logText.js';

/** Conversions whose uploaded names are kept at hand (a name never changes; a live conversion writes many lines). */
const NAMES_KEPT = 500;

export interface ConversionLogWriterDeps {
  models: Models;
  events: ConversionEvents;
  logger: Logger;
}

export class ConversionLogWriter {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly names = new Map<string, UploadedNames>();

  constructor(private readonly deps: ConversionLogWriterDeps) {}

  /** Appends an entry after the conversion's earlier ones and sends it live. */
  write(conversionId: string, level: ConversionLogLevel, message: string, step?: string): Promise<void> {
    const prev = this.chains.get(conversionId) ?? Promise.resolve();
    const next = prev
      .then(async () => {
        const text = readableLogMessage(message, await this.uploadedNames(conversionId));
        const entry = await appendLog(this.deps.models, conversionId, { level, message: text, step });
        this.deps.events.update({ type: 'log', conversionId, timestamp: entry.timestamp, log: entry, message: entry.message, step: entry.step ?? undefined });
      })
      .catch((err: unknown) => this.deps.logger.warn({ err, conversionId }, 'conversion log not written'));
    this.chains.set(conversionId, next);
    void next.then(() => {
      if (this.chains.get(conversionId) === next) this.chains.delete(conversionId);
    });
    return next;
  }

  private async uploadedNames(conversionId: string): Promise<UploadedNames | null> {
    const known = this.names.get(conversionId);
    if (known) return known;
    const row = await this.deps.models.Conversion.findByPk(conversionId, { attributes: ['id', 'fileName', 'inputFiles'] });
    if (!row) return null;
    const names: UploadedNames = { fileName: row.fileName, others: (row.inputFiles ?? []).map((f) => f.fileName) };
    if (this.names.size >= NAMES_KEPT) this.names.delete(this.names.keys().next().value as string);
    this.names.set(conversionId, names);
    return names;
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
