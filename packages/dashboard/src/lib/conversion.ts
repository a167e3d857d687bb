/**
 * The conversion as the user page holds it, built from whatever shape the API or the live
 * channel sends (ids as id/_id/conversionId, names as fileName/originalFileName/filename,
 * wrapped dates), and the update reducer (docs/dashboard.md "How live data works").
 */
import { CONVERSION_LIMITS, CONVERSION_STATUSES, type ConversionStatus, type PlayCheck } from '@aabify/shared';

import { aabFileName, toDate, type DateLike } from './format';

export { CONVERSION_STATUSES, type ConversionStatus };
export const LOG_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogEntry {
  id?: string;
  timestamp: string;
  level: LogLevel;
  message: string;
  step?: string;
}

export const LIVE_DEFAULTS = {
  averageProcessingTime: 300000,
  currentlyProcessing: 1,
  maxConcurrent: 3,
} as const;
export const MAX_LOGS: number = CONVERSION_LIMITS.logsPerConversion;
export const UNKNOWN_FILE_NAME = 'Arquivo em processamento';
export const DEFAULT_ERROR_TEXT = 'Erro desconhecido';

export interface ConversionView {
  id: string;
  fileName: string;
  fileSize: number;
  status: ConversionStatus;
  progress: number;
  logs: LogEntry[];
  createdAt?: string;
  processingStartedAt?: string;
  completedAt?: string;
  error?: string;
  queuePosition?: number;
  totalInQueue?: number;
  estimatedTime?: number;
  averageProcessingTime: number;
  currentlyProcessing: number;
  maxConcurrent: number;
  canDownload: boolean;
  /** Name of the AAB to download. */
  filename?: string;
  /** Seconds the download link stays valid. */
  expiresIn?: number;
  duration?: number;
  originalSize?: number;
  convertedSize?: number;
  /** Client time of the last live update (ms). */
  lastUpdate?: number;
  /** The pre-publication checklist (completed conversions, from the status answer). */
  checklist?: PlayCheck[];
  /** Set when an admin reads a customer's conversion (support). */
  support?: { ownerEmail: string | null; downloadAllowed: boolean };
}

const PLAY_CHECK_STATUSES = ['ok', 'warning', 'blocker'];
function readChecklist(v: unknown): PlayCheck[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(
    (c): c is PlayCheck => isObject(c) && typeof c.code === 'string' && typeof c.title === 'string' && PLAY_CHECK_STATUSES.includes(String(c.status)),
  );
}

/** The real-time update message, as socket.io and the SSE stream deliver it. */
export interface ConversionUpdate {
  type: 'progress' | 'queue_position' | 'status_change' | 'completed' | 'error' | 'log' | string;
  conversionId?: string;
  status?: string;
  progress?: number;
  position?: number;
  queuePosition?: number;
  estimatedTime?: number;
  totalWaiting?: number;
  averageProcessingTime?: number;
  currentlyProcessing?: number;
  maxConcurrent?: number;
  log?: unknown;
  message?: string;
  step?: string;
  error?: string;
  filename?: string;
  fileSize?: number;
  canDownload?: boolean;
  expiresIn?: number;
  timestamp?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** An id as it may arrive: text, or a wrapped object id ({ $oid }). */
export function readId(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  if (isObject(value)) return str(value.$oid) ?? str(value.id) ?? str(value._id);
  return undefined;
}

function isoOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const d = toDate(value as DateLike);
  return d?.toISOString();
}

export function clampProgress(value: unknown): number {
  const n = num(value) ?? 0;
  return Math.min(100, Math.max(0, Math.round(n)));
}

export function isConversionStatus(value: unknown): value is ConversionStatus {
  return typeof value === 'string' && (CONVERSION_STATUSES as readonly string[]).includes(value);
}

export function isActiveStatus(status: ConversionStatus): boolean {
  return status === 'pending' || status === 'queued' || status === 'processing';
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** One log entry from an object or a plain string (one view sends strings). */
export function normalizeLog(raw: unknown, fallbackTime: string = new Date().toISOString()): LogEntry | undefined {
  if (typeof raw === 'string') return raw ? { timestamp: fallbackTime, level: 'info', message: raw } : undefined;
  if (!isObject(raw)) return undefined;
  const message = str(raw.message);
  if (!message) return undefined;
  const level = raw.level === 'warn' ? 'warning' : isLogLevel(raw.level) ? raw.level : 'info';
  const entry: LogEntry = { timestamp: isoOf(raw.timestamp) ?? fallbackTime, level, message };
  const id = readId(raw.id ?? raw._id);
  if (id) entry.id = id;
  const step = str(raw.step);
  if (step) entry.step = step;
  return entry;
}

function logKey(entry: LogEntry): string {
  return entry.id ? `id:${entry.id}` : `tm:${entry.timestamp}|${entry.message}`;
}

/** Appends entries, skipping duplicates (same id, or same timestamp and message); keeps the last 200. */
export function mergeLogs(existing: readonly LogEntry[], incoming: readonly LogEntry[], max: number = MAX_LOGS): LogEntry[] {
  const seen = new Set<string>();
  for (const e of existing) {
    seen.add(logKey(e));
    if (e.id) seen.add(`tm:${e.timestamp}|${e.message}`);
  }
  const out = [...existing];
  for (const e of incoming) {
    const byId = e.id ? `id:${e.id}` : undefined;
    const byTime = `tm:${e.timestamp}|${e.message}`;
    if ((byId && seen.has(byId)) || seen.has(byTime)) continue;
    if (byId) seen.add(byId);
    seen.add(byTime);
    out.push(e);
  }
  return out.length > max ? out.slice(out.length - max) : out;
}

/** A conversion from any API answer shape; undefined without an id. */
export function normalizeConversion(raw: unknown, averageDefault: number = LIVE_DEFAULTS.averageProcessingTime): ConversionView | undefined {
  if (!isObject(raw)) return undefined;
  const source = isObject(raw.conversion) ? raw.conversion : raw;
  const id = readId(source.id ?? source._id ?? source.conversionId);
  if (!id) return undefined;
  const status = isConversionStatus(source.status) ? source.status : 'processing';
  const logs = Array.isArray(source.logs)
    ? mergeLogs([], source.logs.map((l) => normalizeLog(l)).filter((l): l is LogEntry => l !== undefined))
    : [];
  const aab = isObject(source.aabFile) ? source.aabFile : undefined;
  const fileName = str(source.fileName) ?? str(source.originalFileName) ?? str(source.filename) ?? UNKNOWN_FILE_NAME;
  const view: ConversionView = {
    id,
    fileName,
    fileSize: num(source.fileSize) ?? num(source.originalSize) ?? 0,
    status,
    progress: status === 'completed' ? 100 : clampProgress(source.progress),
    logs,
    averageProcessingTime: num(source.averageProcessingTime) ?? averageDefault,
    currentlyProcessing: num(source.currentlyProcessing) ?? LIVE_DEFAULTS.currentlyProcessing,
    maxConcurrent: num(source.maxConcurrent) ?? LIVE_DEFAULTS.maxConcurrent,
    canDownload: source.canDownload === undefined ? status === 'completed' : source.canDownload === true,
  };
  const optional = {
    createdAt: isoOf(source.createdAt),
    processingStartedAt: isoOf(source.processingStartedAt),
    completedAt: isoOf(source.completedAt),
    error: str(source.error) ?? (isObject(source.error) ? str(source.error.message) : undefined),
    queuePosition: num(source.queuePosition),
    totalInQueue: num(source.totalInQueue),
    estimatedTime: num(source.estimatedTime),
    filename: str(aab?.filename) ?? str(aab?.fileName) ?? (str(source.filename) !== fileName ? str(source.filename) : undefined),
    expiresIn: num(source.expiresIn),
    duration: num(source.duration),
    originalSize: num(source.originalSize) ?? num(source.fileSize),
    convertedSize: num(source.convertedSize) ?? num(aab?.size) ?? num(aab?.fileSize),
    checklist: readChecklist(source.checklist),
    support: isObject(source.support) ? { ownerEmail: str(source.support.ownerEmail) ?? null, downloadAllowed: source.support.downloadAllowed === true } : undefined,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) (view as unknown as Json)[key] = value;
  return view;
}

/** The state a conversion starts in once submitted or announced. */
export function newQueuedConversion(id: string, fileName: string, fileSize: number, extra: Partial<ConversionView> = {}): ConversionView {
  return {
    id,
    fileName,
    fileSize,
    status: 'queued',
    progress: 0,
    logs: [],
    averageProcessingTime: LIVE_DEFAULTS.averageProcessingTime,
    currentlyProcessing: LIVE_DEFAULTS.currentlyProcessing,
    maxConcurrent: LIVE_DEFAULTS.maxConcurrent,
    canDownload: false,
    originalSize: fileSize,
    createdAt: new Date().toISOString(),
    ...extra,
  };
}

/** What the page assumes when the first stats request returns nothing. */
export function unknownConversion(id: string): ConversionView {
  return { ...newQueuedConversion(id, UNKNOWN_FILE_NAME, 0), status: 'processing', createdAt: undefined };
}

function logFromUpdate(update: ConversionUpdate, now: string): LogEntry | undefined {
  if (update.log !== undefined) return normalizeLog(update.log, update.timestamp ?? now);
  if (!update.message) return undefined;
  const level: LogLevel = update.type === 'error' ? 'error' : update.type === 'completed' ? 'success' : 'info';
  return { timestamp: update.timestamp ?? now, level, message: update.message, ...(update.step ? { step: update.step } : {}) };
}

/**
 * Applies one live update. Updates for another conversion leave the state as is.
 * `now` is injected so tests are deterministic.
 */
export function applyUpdate(state: ConversionView, update: ConversionUpdate, now: Date = new Date()): ConversionView {
  if (update.conversionId && update.conversionId !== state.id) return state;
  const nowIso = now.toISOString();
  const next: ConversionView = { ...state, lastUpdate: now.getTime() };
  const appendLog = () => {
    const entry = logFromUpdate(update, nowIso);
    if (entry) next.logs = mergeLogs(state.logs, [entry]);
  };
  switch (update.type) {
    case 'progress': {
      next.progress = clampProgress(update.progress ?? state.progress);
      if (state.status === 'queued' || state.status === 'pending') next.status = 'processing';
      if (isConversionStatus(update.status)) next.status = update.status;
      appendLog();
      break;
    }
    case 'queue_position': {
      const position = update.position ?? update.queuePosition;
      if (position !== undefined) next.queuePosition = position;
      if (update.estimatedTime !== undefined) next.estimatedTime = update.estimatedTime;
      if (update.totalWaiting !== undefined) next.totalInQueue = update.totalWaiting;
      if (update.averageProcessingTime !== undefined) next.averageProcessingTime = update.averageProcessingTime;
      if (update.currentlyProcessing !== undefined) next.currentlyProcessing = update.currentlyProcessing;
      if (update.maxConcurrent !== undefined) next.maxConcurrent = update.maxConcurrent;
      if (isConversionStatus(update.status)) next.status = update.status;
      else if (position === 0 && isActiveStatus(state.status)) next.status = 'processing';
      break;
    }
    case 'status_change': {
      if (isConversionStatus(update.status)) next.status = update.status;
      if (update.progress !== undefined) next.progress = clampProgress(update.progress);
      if (next.status === 'processing' && !state.processingStartedAt) next.processingStartedAt = nowIso;
      if (next.status === 'completed') next.progress = 100;
      appendLog();
      break;
    }
    case 'completed': {
      next.status = 'completed';
      next.progress = 100;
      next.canDownload = update.canDownload ?? true;
      next.filename = update.filename ?? aabFileName(state.fileName === UNKNOWN_FILE_NAME ? undefined : state.fileName);
      if (update.fileSize !== undefined) next.convertedSize = update.fileSize;
      if (update.expiresIn !== undefined) next.expiresIn = update.expiresIn;
      next.completedAt = state.completedAt ?? nowIso;
      next.queuePosition = 0;
      appendLog();
      break;
    }
    case 'error':
    case 'failed': {
      next.status = 'failed';
      next.error = update.error ?? update.message ?? DEFAULT_ERROR_TEXT;
      next.completedAt = state.completedAt ?? nowIso;
      const entry = normalizeLog(update.log, update.timestamp ?? nowIso) ?? { timestamp: update.timestamp ?? nowIso, level: 'error' as const, message: next.error };
      next.logs = mergeLogs(state.logs, [entry]);
      break;
    }
    case 'log': {
      appendLog();
      break;
    }
    default:
      return state;
  }
  if (next.status === 'processing' && !next.processingStartedAt) next.processingStartedAt = nowIso;
  if (next.status === 'completed' && next.processingStartedAt && next.completedAt && next.duration === undefined) {
    next.duration = Math.max(0, Date.parse(next.completedAt) - Date.parse(next.processingStartedAt));
  }
  return next;
}

/** The conversion page shows four statuses; anything else reads 'Status Desconhecido'. */
export const STATUS_LABELS: Record<string, string> = {
  queued: 'Na Fila',
  processing: 'Processando',
  completed: 'Concluído',
  failed: 'Falhou',
};
export const UNKNOWN_STATUS_LABEL = 'Status Desconhecido';

export function statusLabel(status: string | undefined): string {
  return (status && STATUS_LABELS[status]) || UNKNOWN_STATUS_LABEL;
}

/** The history lists every status the server keeps. */
export const HISTORY_STATUS_LABELS: Record<ConversionStatus, string> = {
  pending: 'Pendente',
  queued: 'Na Fila',
  processing: 'Processando',
  completed: 'Concluído',
  failed: 'Falhou',
  cancelled: 'Cancelado',
};

/** The colour of a progress bar by status: one colour for a finished bar on every screen. */
export const PROGRESS_VARIANTS: Record<string, string> = { pending: 'secondary', queued: 'info', processing: 'primary', completed: 'success', failed: 'danger', cancelled: 'secondary' };

export const STATUS_VARIANTS: Record<ConversionStatus, string> = {
  pending: 'secondary',
  queued: 'info',
  processing: 'primary',
  completed: 'success',
  failed: 'danger',
  cancelled: 'secondary',
};
