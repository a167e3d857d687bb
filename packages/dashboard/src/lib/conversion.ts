/**
 * The conversion as the user page holds it (ConversionView), built from the server's answers
 * (ApiConversion, ConversionLogEntry) and kept current by the live updates (ConversionUpdate):
 * the update reducer of the conversion page.
 */
import {
  APKS_OUTPUT_TEXTS,
  CONVERSION_LIMITS,
  CONVERSION_LOG_LEVELS,
  CONVERSION_STATUSES,
  isActiveConversionStatus,
  isConversionStatus,
  isDeviceSet,
  outputFileName,
  type ApiConversion,
  type ApksReportJson,
  type ConversionKind,
  type ConversionLogEntry,
  type ConversionLogLevel,
  type ConversionStatus,
  type ConversionUpdate,
  type PlayCheck,
} from '@aabify/shared';

export { CONVERSION_STATUSES, isConversionStatus, type ConversionStatus };
export const LOG_LEVELS = CONVERSION_LOG_LEVELS;
export type LogLevel = ConversionLogLevel;

/** A log line of the page: the server's entries, and the lines the page writes itself (no id). */
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
  /** The failure's code (decides whether 'Tentar novamente' can help). */
  errorCode?: string;
  queuePosition?: number;
  totalInQueue?: number;
  estimatedTime?: number;
  averageProcessingTime: number;
  currentlyProcessing: number;
  maxConcurrent: number;
  canDownload: boolean;
  /** What the conversion makes: an AAB from an APK (absent: the same), or an APK from an AAB. */
  kind?: ConversionKind;
  /** Name of the file to download: the AAB, or the APK of AAB → APK. */
  filename?: string;
  /** AAB → APK: the APK built and the key that signed it. */
  apks?: ApksReportJson;
  /** AAB → APK: 'device-set' when the conversion asked for a device profile's set (`device`) instead of the universal APK. */
  output?: string;
  device?: string;
  /** Seconds the download link stays valid. */
  expiresIn?: number;
  duration?: number;
  originalSize?: number;
  convertedSize?: number;
  /** Client time of the last live update (ms). */
  lastUpdate?: number;
  /** The pre-publication checklist (completed conversions, from the status answer). */
  checklist?: PlayCheck[];
  /** Whether the AAB was signed with the account's upload key (completed conversions with a report). */
  signed?: boolean;
  /** Set when an admin reads a customer's conversion (support). */
  support?: { ownerEmail: string | null; downloadAllowed: boolean };
}

export function clampProgress(value: number | undefined): number {
  return Math.min(100, Math.max(0, Math.round(value ?? 0)));
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** A server log entry as a line of the page. */
export function logEntryOf(entry: ConversionLogEntry): LogEntry {
  return { id: entry.id, timestamp: entry.timestamp, level: entry.level, message: entry.message, ...(entry.step ? { step: entry.step } : {}) };
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

/** The page's view of a conversion the server answered (status, history, the live channel's lists). */
export function conversionView(c: ApiConversion): ConversionView {
  const view: ConversionView = {
    id: c.id,
    fileName: c.fileName || UNKNOWN_FILE_NAME,
    fileSize: c.fileSize,
    status: c.status,
    progress: c.status === 'completed' ? 100 : clampProgress(c.progress),
    logs: c.logs ? mergeLogs([], c.logs.map(logEntryOf)) : [],
    averageProcessingTime: c.averageProcessingTime,
    currentlyProcessing: c.currentlyProcessing,
    maxConcurrent: c.maxConcurrent,
    canDownload: c.canDownload,
    createdAt: c.createdAt,
    filename: c.filename,
    expiresIn: c.expiresIn,
    originalSize: c.originalSize,
  };
  const optional: Partial<ConversionView> = {
    processingStartedAt: c.processingStartedAt ?? undefined,
    completedAt: c.completedAt ?? undefined,
    error: c.error ?? undefined,
    errorCode: c.errorCode ?? undefined,
    queuePosition: c.queuePosition ?? undefined,
    totalInQueue: c.totalInQueue,
    estimatedTime: c.estimatedTime ?? undefined,
    duration: c.duration ?? undefined,
    convertedSize: c.convertedSize ?? undefined,
    checklist: c.checklist ?? undefined,
    kind: c.kind,
    apks: c.apks ?? undefined,
    output: c.options.output,
    device: c.options.device,
    signed: c.report ? Boolean(c.report.signature) : undefined,
    support: c.support,
  };
  for (const [key, value] of Object.entries(optional) as [keyof ConversionView, unknown][]) if (value !== undefined) Object.assign(view, { [key]: value });
  return view;
}

/** What an AAB → APK conversion built: the universal APK, or the set of a device profile (its name once built, else its id). */
export function apksBuilt(conversion: Pick<ConversionView, 'output' | 'device' | 'apks'>): string {
  if (!isDeviceSet(conversion)) return APKS_OUTPUT_TEXTS.universal;
  return APKS_OUTPUT_TEXTS.builtDeviceSet(conversion.apks?.device?.label ?? conversion.device ?? '');
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

/** The log line an update carries: its entry, else its message (progress, completion). */
function logFromUpdate(update: ConversionUpdate): LogEntry | undefined {
  if (update.log) return logEntryOf(update.log);
  if (!update.message) return undefined;
  const level: LogLevel = update.type === 'error' ? 'error' : update.type === 'completed' ? 'success' : 'info';
  return { timestamp: update.timestamp, level, message: update.message, ...(update.step ? { step: update.step } : {}) };
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
    const entry = logFromUpdate(update);
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
      const position = update.position;
      if (position !== undefined) next.queuePosition = position;
      if (update.estimatedTime !== undefined) next.estimatedTime = update.estimatedTime;
      if (update.totalWaiting !== undefined) next.totalInQueue = update.totalWaiting;
      if (update.averageProcessingTime !== undefined) next.averageProcessingTime = update.averageProcessingTime;
      if (update.currentlyProcessing !== undefined) next.currentlyProcessing = update.currentlyProcessing;
      if (update.maxConcurrent !== undefined) next.maxConcurrent = update.maxConcurrent;
      if (isConversionStatus(update.status)) next.status = update.status;
      else if (position === 0 && isActiveConversionStatus(state.status)) next.status = 'processing';
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
      next.filename =
        update.filename ?? outputFileName({ kind: state.kind ?? 'apk-to-aab', fileName: state.fileName === UNKNOWN_FILE_NAME ? undefined : state.fileName, options: { output: state.output } });
      if (update.fileSize !== undefined) next.convertedSize = update.fileSize;
      if (update.expiresIn !== undefined) next.expiresIn = update.expiresIn;
      next.completedAt = state.completedAt ?? nowIso;
      next.queuePosition = 0;
      appendLog();
      break;
    }
    case 'error': {
      next.status = 'failed';
      next.error = update.error ?? update.message ?? DEFAULT_ERROR_TEXT;
      if (update.code) next.errorCode = update.code;
      next.completedAt = state.completedAt ?? nowIso;
      const entry = update.log ? logEntryOf(update.log) : { timestamp: update.timestamp, level: 'error' as const, message: next.error };
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

/**
 * Time left of a running conversion: from its own pace once it is 10 % along, before that the
 * server's estimate for its input size (measured durations of recent conversions).
 */
export function remainingEstimate(c: Pick<ConversionView, 'progress' | 'processingStartedAt' | 'estimatedTime'>, now: number = Date.now()): number | undefined {
  const started = c.processingStartedAt ? Date.parse(c.processingStartedAt) : Number.NaN;
  const elapsed = Number.isFinite(started) ? Math.max(0, now - started) : 0;
  if (c.progress >= 10 && c.progress < 100 && elapsed > 0) return Math.round((elapsed / c.progress) * (100 - c.progress));
  if (c.estimatedTime !== undefined) return Math.max(0, c.estimatedTime);
  return undefined;
}
