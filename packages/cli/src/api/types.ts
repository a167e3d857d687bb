/**
 * The API's answers as the CLI reads them, checked at the edge (`unknown` in, typed out). Ids may
 * arrive as `_id`, `id` or `conversionId` (or wrapped object ids), dates wrapped,
 * logs as objects or plain strings; these readers accept every form and keep the raw object for
 * `--json`.
 */
import { CliError, EXIT_NETWORK } from './errors.js';
import { serverId } from './ids.js';
import { sanitize } from '../safeText.js';

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isRecord(v)) {
    if (typeof v.$oid === 'string') return v.$oid;
    if (typeof v.$date === 'string') return v.$date;
  }
  return undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** An answer that is not what the API promises: a server problem (exit 6). */
export function unexpected(what: string, body: unknown): CliError {
  return new CliError('UNEXPECTED_RESPONSE', `Resposta inesperada do servidor (${what}).`, EXIT_NETWORK, {
    detail: JSON.stringify(body)?.slice(0, 500) ?? String(body),
  });
}

export function expectRecord(body: unknown, what: string): Json {
  if (!isRecord(body)) throw unexpected(what, body);
  return body;
}

export const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: string | undefined): status is TerminalStatus {
  return status !== undefined && (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export interface LogEntry {
  id?: string;
  timestamp?: string;
  level: string;
  message: string;
  step?: string;
}

/** A one-line text field of an answer (name, status, error, step), folded and made inert; the raw answer keeps it as sent. */
function text(v: unknown): string | undefined {
  const s = str(v);
  return s === undefined ? undefined : sanitize(s, false);
}

export function readLogEntry(v: unknown): LogEntry | undefined {
  if (typeof v === 'string') return { level: 'info', message: v };
  if (!isRecord(v)) return undefined;
  const message = str(v.message) ?? str(v.msg);
  if (message === undefined) return undefined;
  const id = str(v.id) ?? str(v._id);
  const timestamp = str(v.timestamp) ?? str(v.time) ?? str(v.createdAt);
  const step = text(v.step) ?? text(v.stage);
  return { level: text(v.level) ?? 'info', message, ...(id ? { id } : {}), ...(timestamp ? { timestamp } : {}), ...(step ? { step } : {}) };
}

/** Logs as an array, `{ logs }` or `{ data: { logs } }`. */
export function readLogs(body: unknown): LogEntry[] {
  const list = Array.isArray(body)
    ? body
    : isRecord(body) && Array.isArray(body.logs)
      ? body.logs
      : isRecord(body) && isRecord(body.data) && Array.isArray(body.data.logs)
        ? body.data.logs
        : undefined;
  if (!list) throw unexpected('logs', body);
  return list.map(readLogEntry).filter((e): e is LogEntry => e !== undefined);
}

/** Same entry (same id, or same timestamp plus message): shown once. */
export function logKey(entry: LogEntry): string {
  return entry.id ?? `${entry.timestamp ?? ''}|${entry.message}`;
}

export interface Conversion {
  id: string;
  status: string;
  fileName?: string;
  fileSize?: number;
  progress?: number;
  queuePosition?: number;
  totalInQueue?: number;
  estimatedTime?: number;
  error?: string;
  canDownload?: boolean;
  createdAt?: string;
  processingStartedAt?: string;
  completedAt?: string;
  convertedSize?: number;
  step?: string;
  logs?: LogEntry[];
  raw: Json;
}

function conversionId(v: Json): string | undefined {
  return str(v.id) ?? str(v._id) ?? str(v.conversionId);
}

function errorText(v: unknown): string | undefined {
  if (typeof v === 'string') return sanitize(v, false);
  if (isRecord(v)) return text(v.message) ?? text(v.error);
  return undefined;
}

/** A conversion from `{ conversion }`, `{ data }` or the object itself. */
export function readConversion(body: unknown, fallbackId?: string): Conversion {
  const outer = expectRecord(body, 'conversão');
  const raw = isRecord(outer.conversion) ? outer.conversion : isRecord(outer.data) ? outer.data : outer;
  const id = conversionId(raw) ?? conversionId(outer) ?? fallbackId;
  const status = text(raw.status) ?? text(outer.status);
  if (!id || !status) throw unexpected('conversão sem id ou status', body);
  const c: Conversion = { id: serverId(id, 'conversão'), status, raw };
  const set = <K extends keyof Conversion>(key: K, value: Conversion[K] | undefined): void => {
    if (value !== undefined) c[key] = value;
  };
  set('fileName', text(raw.fileName) ?? text(raw.originalFileName) ?? text(raw.filename));
  set('fileSize', num(raw.fileSize) ?? num(raw.originalSize));
  const progress = num(raw.progress);
  set('progress', progress === undefined ? undefined : Math.min(100, Math.max(0, progress)));
  set('queuePosition', num(raw.queuePosition) ?? num(raw.position));
  set('totalInQueue', num(raw.totalInQueue) ?? num(raw.totalWaiting));
  set('estimatedTime', num(raw.estimatedTime));
  set('error', errorText(raw.error) ?? errorText(raw.errorMessage));
  set('canDownload', bool(raw.canDownload));
  set('createdAt', str(raw.createdAt));
  set('processingStartedAt', str(raw.processingStartedAt));
  set('completedAt', str(raw.completedAt));
  set('convertedSize', num(raw.convertedSize) ?? (isRecord(raw.aabFile) ? num(raw.aabFile.size) : undefined));
  set('step', text(raw.step) ?? text(raw.stage) ?? text(raw.currentStep));
  if (Array.isArray(raw.logs)) c.logs = raw.logs.map(readLogEntry).filter((e): e is LogEntry => e !== undefined);
  return c;
}

export interface ConversionStart {
  conversionId: string;
  fileName?: string;
  fileSize?: number;
  queuePosition?: number;
  estimatedTime?: number;
  status?: string;
  message?: string;
  raw: Json;
}

export function readConversionStart(body: unknown): ConversionStart {
  const outer = expectRecord(body, 'envio');
  const raw = isRecord(outer.conversion) ? { ...outer.conversion, ...outer } : outer;
  const id = str(raw.conversionId) ?? str(raw.id) ?? str(raw._id) ?? (isRecord(outer.conversion) ? conversionId(outer.conversion) : undefined);
  if (!id) throw unexpected('envio sem conversionId', body);
  const start: ConversionStart = { conversionId: serverId(id, 'conversão'), raw: outer };
  const fileName = text(raw.fileName) ?? text(raw.originalFileName);
  if (fileName) start.fileName = fileName;
  const fileSize = num(raw.fileSize);
  if (fileSize !== undefined) start.fileSize = fileSize;
  const queuePosition = num(raw.queuePosition);
  if (queuePosition !== undefined) start.queuePosition = queuePosition;
  const estimatedTime = num(raw.estimatedTime);
  if (estimatedTime !== undefined) start.estimatedTime = estimatedTime;
  const status = text(raw.status);
  if (status) start.status = status;
  const message = text(raw.message);
  if (message) start.message = message;
  return start;
}

/** One real-time update (SSE message; docs/conversions.md "Live updates"). */
export interface UpdateMessage {
  type: string;
  conversionId?: string;
  status?: string;
  progress?: number;
  position?: number;
  totalWaiting?: number;
  estimatedTime?: number;
  log?: LogEntry;
  message?: string;
  step?: string;
  error?: string;
  canDownload?: boolean;
  raw: Json;
}

export function readUpdate(data: unknown, eventName?: string): UpdateMessage | undefined {
  if (!isRecord(data)) return undefined;
  const type = str(data.type) ?? (eventName && eventName !== 'message' ? eventName : undefined) ?? (str(data.status) ? 'status_change' : undefined);
  if (!type) return undefined;
  const u: UpdateMessage = { type, raw: data };
  const conversionIdValue = str(data.conversionId) ?? str(data.id);
  if (conversionIdValue) u.conversionId = conversionIdValue;
  const status = text(data.status);
  if (status) u.status = status;
  const progress = num(data.progress);
  if (progress !== undefined) u.progress = Math.min(100, Math.max(0, progress));
  const position = num(data.position) ?? num(data.queuePosition);
  if (position !== undefined) u.position = position;
  const totalWaiting = num(data.totalWaiting) ?? num(data.totalInQueue);
  if (totalWaiting !== undefined) u.totalWaiting = totalWaiting;
  const estimatedTime = num(data.estimatedTime);
  if (estimatedTime !== undefined) u.estimatedTime = estimatedTime;
  const log = data.log !== undefined ? readLogEntry(data.log) : undefined;
  if (log) u.log = log;
  const message = str(data.message);
  if (message) u.message = message;
  const step = text(data.step) ?? text(data.stage);
  if (step) u.step = step;
  const error = errorText(data.error);
  if (error) u.error = error;
  const canDownload = bool(data.canDownload);
  if (canDownload !== undefined) u.canDownload = canDownload;
  return u;
}

/** Statuses in pt-BR, as the dashboard names them. */
export const STATUS_LABELS: Record<string, string> = {
  pending: 'pendente',
  queued: 'na fila',
  processing: 'processando',
  completed: 'concluída',
  failed: 'falhou',
  cancelled: 'cancelada',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/** The estimated-time text, worded as the dashboard's queue card says it. */
export function estimateText(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (ms <= 0) return 'a qualquer momento';
  if (ms < 60_000) return 'menos de 1 minuto';
  const minutes = Math.round(ms / 60_000);
  return minutes <= 1 ? '1 minuto' : `${minutes} minutos`;
}

export interface Account {
  id?: string;
  email: string;
  role: string;
  userType?: string;
  planStatus?: string;
  credits?: number;
  expiresAt?: string;
  raw: Json;
}

/** The user of `/auth/me` (or `{ user }` of login and verify). */
export function readAccount(body: unknown): Account {
  const outer = expectRecord(body, 'usuário');
  const raw = isRecord(outer.user) ? outer.user : outer;
  const email = text(raw.email);
  const role = text(raw.role);
  if (!email || !role) throw unexpected('usuário sem email ou papel', body);
  const summary = isRecord(raw.usageSummary) ? raw.usageSummary : {};
  const credits = isRecord(raw.credits) ? num(raw.credits.available) : num(raw.credits);
  const expiresAt = (isRecord(raw.subscription) ? str(raw.subscription.expiresAt) : undefined) ?? str(summary.expiresAt);
  const account: Account = { email, role, raw };
  const id = str(raw.id) ?? str(raw._id);
  if (id) account.id = id;
  const userType = text(raw.userType) ?? text(summary.userType);
  if (userType) account.userType = userType;
  const planStatus = text(summary.planAccess);
  if (planStatus) account.planStatus = planStatus;
  if (credits !== undefined) account.credits = credits;
  if (expiresAt) account.expiresAt = expiresAt;
  return account;
}

export const PLAN_STATUS_LABELS: Record<string, string> = {
  active: 'plano ativo',
  no_plan: 'sem plano',
  no_credits: 'sem créditos',
  expired: 'assinatura expirada',
};

export function formatDate(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: process.env.TZ || 'America/Sao_Paulo' });
}
