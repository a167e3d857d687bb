/** A conversion's log: entries written as they happen, at most 200 kept and served. */
import { QueryTypes, type Sequelize } from 'sequelize';
import { CONVERSION_LIMITS, type ConversionLogEntry, type ConversionLogLevel } from '@aabify/shared';
import type { ConversionLog, Models } from '../models/index.js';
import { storableText } from '../db/storable.js';

export function presentLog(row: ConversionLog): ConversionLogEntry {
  return { id: String(row.id), timestamp: row.timestamp.toISOString(), level: row.level, message: row.message, step: row.step };
}

export interface NewLogEntry {
  level: ConversionLogLevel;
  message: string;
  step?: string | null;
  /** When it happened (it may be stored a moment later, with the entries that followed it). */
  timestamp: Date;
}

/** Stores entries of one conversion in one statement, in order (their ids grow in that order). */
export async function appendLogs(models: Models, conversionId: string, entries: readonly NewLogEntry[]): Promise<ConversionLogEntry[]> {
  const rows = await models.ConversionLog.bulkCreate(
    entries.map((e) => ({ conversionId, timestamp: e.timestamp, level: e.level, step: e.step ?? null, message: storableText(e.message).slice(0, 4000) })),
    { returning: true },
  );
  return rows.map(presentLog);
}

/** One entry, now. */
export async function appendLog(models: Models, conversionId: string, entry: { level: ConversionLogLevel; message: string; step?: string | null }): Promise<ConversionLogEntry> {
  const [stored] = await appendLogs(models, conversionId, [{ ...entry, timestamp: new Date() }]);
  return stored!;
}

/** Drops all but the newest 200 entries of a conversion. */
export async function trimLogs(sequelize: Sequelize, conversionId: string): Promise<void> {
  await sequelize.query(
    `DELETE FROM conversion_logs WHERE "conversionId" = :id AND id <= (
       SELECT id FROM conversion_logs WHERE "conversionId" = :id ORDER BY id DESC OFFSET :keep LIMIT 1)`,
    { replacements: { id: conversionId, keep: CONVERSION_LIMITS.logsPerConversion }, type: QueryTypes.DELETE },
  );
}

/** The newest 200 entries, oldest first. */
export async function readLogs(models: Models, conversionId: string): Promise<ConversionLogEntry[]> {
  const rows = await models.ConversionLog.findAll({
    where: { conversionId },
    order: [['id', 'DESC']],
    limit: CONVERSION_LIMITS.logsPerConversion,
  });
  return rows.reverse().map(presentLog);
}

/** Engine levels to the levels the client filters on. */
export function logLevelOf(level: 'info' | 'warn' | 'error'): ConversionLogLevel {
  return level === 'warn' ? 'warning' : level;
}
