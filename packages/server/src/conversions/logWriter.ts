/**
 * Writes a conversion's log: each entry stored (in the order written, per conversion) and sent
 * live to its watchers, worded for its owner (logText.ts: sizes, the uploaded files' names).
 * Entries written while the conversion's previous ones are being stored wait and are stored
 * together, in one statement (an engine logs in bursts). A failed write is logged and never fails
 * the conversion.
 */
import type { ConversionLogLevel } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import type { ConversionEvents } from './events.js';
import { appendLogs, type NewLogEntry } from './logs.js';
import { readableLogMessage, type UploadedNames } from './logText.js';

/** Conversions whose uploaded names are kept at hand (a name never changes; a live conversion writes many lines). */
const NAMES_KEPT = 500;

export interface ConversionLogWriterDeps {
  models: Models;
  events: ConversionEvents;
  logger: Logger;
}

export class ConversionLogWriter {
  /** Per conversion: the last batch's promise (stored, or failed and logged). */
  private readonly chains = new Map<string, Promise<void>>();
  /** Per conversion: the batch not yet being stored, which new entries join. */
  private readonly waiting = new Map<string, { entries: NewLogEntry[]; stored: Promise<void> }>();
  private readonly names = new Map<string, UploadedNames>();

  constructor(private readonly deps: ConversionLogWriterDeps) {}

  /** Appends an entry after the conversion's earlier ones and sends it live; resolves once it is stored. */
  write(conversionId: string, level: ConversionLogLevel, message: string, step?: string): Promise<void> {
    const entry: NewLogEntry = { level, message, step, timestamp: new Date() };
    const joined = this.waiting.get(conversionId);
    if (joined) {
      joined.entries.push(entry);
      return joined.stored;
    }
    const batch = { entries: [entry], stored: Promise.resolve() };
    const prev = this.chains.get(conversionId) ?? Promise.resolve();
    batch.stored = prev
      .then(async () => {
        // From here on, new entries form the next batch.
        this.waiting.delete(conversionId);
        const names = await this.uploadedNames(conversionId);
        const worded = batch.entries.map((e) => ({ ...e, message: readableLogMessage(e.message, names) }));
        const stored = await appendLogs(this.deps.models, conversionId, worded);
        this.deps.events.updateMany(stored.map((log) => ({ type: 'log', conversionId, timestamp: log.timestamp, log, message: log.message, step: log.step ?? undefined })));
      })
      .catch((err: unknown) => this.deps.logger.warn({ err, conversionId }, 'conversion log not written'));
    this.waiting.set(conversionId, batch);
    this.chains.set(conversionId, batch.stored);
    void batch.stored.then(() => {
      if (this.chains.get(conversionId) === batch.stored) this.chains.delete(conversionId);
    });
    return batch.stored;
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
