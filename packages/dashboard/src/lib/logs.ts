/** The log console's filters, counts, search and export (spec users-and-conversion §2). */
import { formatDateTime, formatTime } from './format';
import type { LogEntry, LogLevel } from './conversion';

export type LogFilter = 'all' | LogLevel;
export const LOG_FILTERS: ReadonlyArray<{ key: LogFilter; label: string }> = [
  { key: 'all', label: 'Todos' },
  { key: 'info', label: 'Info' },
  { key: 'success', label: 'Sucesso' },
  { key: 'warning', label: 'Aviso' },
  { key: 'error', label: 'Erro' },
];
export const LOG_LEVEL_LABELS: Record<LogLevel, string> = { info: 'INFO', success: 'SUCESSO', warning: 'AVISO', error: 'ERRO' };

export const LOG_TEXTS = {
  waiting: 'Aguardando logs do processo...',
  noMatch: 'Nenhum log encontrado com os filtros aplicados',
  empty: 'Sem logs disponíveis',
  downloaded: 'Logs baixados',
  downloadFailed: 'Erro ao baixar logs',
  copied: 'Logs copiados para a área de transferência',
  copyFailed: 'Não foi possível copiar os logs',
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
    return l.message.toLowerCase().includes(q) || (l.step ?? '').toLowerCase().includes(q);
  });
}

/** One line per entry: '[time] LEVEL [step] message'. Empty logs read 'Sem logs disponíveis'. */
export function logsAsText(logs: readonly LogEntry[], full = false): string {
  if (logs.length === 0) return LOG_TEXTS.empty;
  return logs
    .map((l) => `[${full ? formatDateTime(l.timestamp) : formatTime(l.timestamp)}] ${LOG_LEVEL_LABELS[l.level]}${l.step ? ` [${l.step}]` : ''} ${l.message}`)
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
