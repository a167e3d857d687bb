/** The log console's filters, counts, search and export. */
import { formatDateTime, formatTime } from './format';
import { conversionStepTag, type ConversionLogsResponse } from '@aabify/shared';
import { MAX_LOGS, logEntryOf, type LogEntry, type LogLevel } from './conversion';

export type LogFilter = 'all' | LogLevel;
export const LOG_FILTERS: ReadonlyArray<{ key: LogFilter; label: string }> = [
  { key: 'all', label: 'Todos' },
  { key: 'info', label: 'Info' },
  { key: 'success', label: 'Sucesso' },
  { key: 'warning', label: 'Aviso' },
  { key: 'error', label: 'Erro' },
];
export const LOG_LEVEL_LABELS: Record<LogLevel, string> = { info: 'Informação', success: 'Sucesso', warning: 'Aviso', error: 'Erro' };

export const LOG_TEXTS = {
  waiting: 'Aguardando logs do processo...',
  noMatch: 'Nenhum log encontrado com os filtros aplicados',
  empty: 'Sem logs disponíveis',
  downloaded: 'Logs baixados',
  downloadFailed: 'Erro ao baixar logs',
  copied: 'Logs copiados para a área de transferência',
  copyFailed: 'Não foi possível copiar os logs',
  cleared: 'Logs removidos',
  clearFailed: 'Erro ao limpar logs',
} as const;

/** Row geometry of the virtualised list: 64 px rows in a 256 px viewport. */
export const LOG_ROW_HEIGHT = 64;
export const LOG_VIEWPORT_HEIGHT = 256;

export function countLogs(logs: readonly LogEntry[]): Record<LogFilter, number> {
  const counts: Record<LogFilter, number> = { all: logs.length, info: 0, success: 0, warning: 0, error: 0 };
  for (const l of logs) counts[l.level]++;
  return counts;
}

/** Level filter, then a case-insensitive search over message and step. */
export function filterLogs(logs: readonly LogEntry[], filter: LogFilter, search: string): LogEntry[] {
  const q = search.trim().toLowerCase();
  return logs.filter((l) => {
    if (filter !== 'all' && l.level !== filter) return false;
    if (!q) return true;
    return l.message.toLowerCase().includes(q) || (l.step ? conversionStepTag(l.step) : '').toLowerCase().includes(q);
  });
}

/** One line per entry: '[time] LEVEL [step] message'. Empty logs read 'Sem logs disponíveis'. */
export function logsAsText(logs: readonly LogEntry[], full = false): string {
  if (logs.length === 0) return LOG_TEXTS.empty;
  return logs
    .map((l) => `[${full ? formatDateTime(l.timestamp) : formatTime(l.timestamp)}] ${LOG_LEVEL_LABELS[l.level]}${l.step ? ` [${conversionStepTag(l.step)}]` : ''} ${l.message}`)
    .join('\n');
}

/** The downloaded log file is named after the conversion id. */
export function logFileName(conversionId: string): string {
  return `conversion-${conversionId}-logs.txt`;
}

/** Which rows of a virtualised list to draw for a scroll position (with one row of overscan). */
export function visibleRange(count: number, scrollTop: number, rowHeight = LOG_ROW_HEIGHT, viewport = LOG_VIEWPORT_HEIGHT): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - 1);
  const end = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + 1);
  return { start, end };
}

/** The identity of an entry: its id when it has one, else its time and message. */
function logKeys(entry: LogEntry): string[] {
  const byTime = `tm:${entry.timestamp}|${entry.message}`;
  return entry.id ? [`id:${entry.id}`, byTime] : [byTime];
}

function timeOf(entry: LogEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isFinite(t) ? t : Number.POSITIVE_INFINITY;
}

/** Numeric server ids break ties between entries written in the same millisecond. */
function numericId(entry: LogEntry): number | undefined {
  return entry.id !== undefined && /^\d+$/.test(entry.id) ? Number(entry.id) : undefined;
}

/**
 * Merges the stored log of a conversion (GET /conversion/logs/:id) with the entries the page
 * already holds (live or cached): duplicates dropped (same id, or same timestamp and
 * message), oldest first (ties: server id, then the order given), the newest `max` kept.
 */
export function mergeLogsInOrder(existing: readonly LogEntry[], incoming: readonly LogEntry[], max: number = MAX_LOGS): LogEntry[] {
  const seen = new Set<string>();
  const all: LogEntry[] = [];
  for (const e of [...existing, ...incoming]) {
    const keys = logKeys(e);
    if (keys.some((k) => seen.has(k))) continue;
    for (const k of keys) seen.add(k);
    all.push(e);
  }
  const indexed = all.map((entry, index) => ({ entry, index, time: timeOf(entry), id: numericId(entry) }));
  indexed.sort((a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    if (a.id !== undefined && b.id !== undefined && a.id !== b.id) return a.id - b.id;
    return a.index - b.index;
  });
  const sorted = indexed.map((i) => i.entry);
  return sorted.length > max ? sorted.slice(sorted.length - max) : sorted;
}

/** The entries of GET /conversion/logs/{id} as lines of the page. */
export function logEntriesFromAnswer(answer: ConversionLogsResponse): LogEntry[] {
  return answer.logs.map(logEntryOf);
}
