/**
 * The API's answers as the CLI reads them: `unknown` in, checked at the edge, the shared answer
 * types out (@aabify/shared/conversionJson, /accounts). Text fields are folded onto one line and
 * made inert (safeText.ts); the raw object is kept for `--json`. An answer without what its type
 * requires is a server problem: UNEXPECTED_RESPONSE (exit 6).
 */
import { PLAN_ACCESS_STATUSES, USER_ROLES, USER_TYPES, type ApiUser } from '@aabify/shared/accounts';
import type { ApiConversion, ConversionLogEntry, ConversionStartResponse, ConversionUpdate } from '@aabify/shared/conversionJson';
import { CONVERSION_LOG_LEVELS, CONVERSION_UPDATE_TYPES, isConversionStatus } from '@aabify/shared/conversions';
import { isRecord, type JsonObject } from '@aabify/shared/json';
import { CliError, EXIT_NETWORK } from './errors.js';
import { serverId } from './ids.js';
import { sanitize } from '../safeText.js';

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** A one-line text field of an answer (name, status, error, step), folded and made inert; the raw answer keeps it as sent. */
function text(v: unknown): string | undefined {
  return typeof v === 'string' ? sanitize(v, false) : undefined;
}

function percent(v: unknown): number | undefined {
  const n = num(v);
  return n === undefined ? undefined : Math.min(100, Math.max(0, n));
}

/** An answer that is not what the API promises: a server problem (exit 6). */
export function unexpected(what: string, body: unknown): CliError {
  return new CliError('UNEXPECTED_RESPONSE', `Resposta inesperada do servidor (${what}).`, EXIT_NETWORK, {
    detail: JSON.stringify(body)?.slice(0, 500) ?? String(body),
  });
}

export function expectRecord(body: unknown, what: string): JsonObject {
  if (!isRecord(body)) throw unexpected(what, body);
  return body;
}

/** The fields of an answer type that the CLI reads, each present only when the server sent it (nulls left out). */
type Present<T> = { [K in keyof T]?: Exclude<T[K], null> };

/** Only the fields whose value is defined, so a reader's result holds just what the server sent. */
function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type LogEntry = Pick<ConversionLogEntry, 'level' | 'message'> & Present<Pick<ConversionLogEntry, 'id' | 'timestamp' | 'step'>>;

function isLogLevel(v: unknown): v is ConversionLogEntry['level'] {
  return typeof v === 'string' && (CONVERSION_LOG_LEVELS as readonly string[]).includes(v);
}

/** A log entry (ConversionLogEntry); undefined when it has no message or an unknown level. */
export function readLogEntry(v: unknown): LogEntry | undefined {
  if (!isRecord(v) || typeof v.message !== 'string' || !isLogLevel(v.level)) return undefined;
  return { level: v.level, message: v.message, ...defined({ id: str(v.id), timestamp: str(v.timestamp), step: text(v.step) }) };
}

/** GET /conversion/logs/{id} (ConversionLogsResponse): its entries, the unreadable ones left out. */
export function readLogs(body: unknown): LogEntry[] {
  if (!isRecord(body) || !Array.isArray(body.logs)) throw unexpected('logs', body);
  return body.logs.map(readLogEntry).filter((e): e is LogEntry => e !== undefined);
}

/** Same entry (same id, or same timestamp plus message): shown once. */
export function logKey(entry: LogEntry): string {
  return entry.id ?? `${entry.timestamp ?? ''}|${entry.message}`;
}

type ConversionFields = Pick<ApiConversion, 'id' | 'status'> &
  Present<
    Pick<
      ApiConversion,
      | 'fileName'
      | 'fileSize'
      | 'progress'
      | 'queuePosition'
      | 'totalInQueue'
      | 'estimatedTime'
      | 'error'
      | 'canDownload'
      | 'createdAt'
      | 'processingStartedAt'
      | 'completedAt'
      | 'convertedSize'
      | 'step'
    >
  >;

/** A conversion (ApiConversion) as the commands read it. */
export interface Conversion extends ConversionFields {
  logs?: LogEntry[];
  raw: JsonObject;
}

/** GET /conversion/status/{id} and the items of the history: an ApiConversion. */
export function readConversion(body: unknown): Conversion {
  const raw = expectRecord(body, 'conversão');
  const id = str(raw.id);
  if (!id || !isConversionStatus(raw.status)) throw unexpected('conversão sem id ou status', body);
  const logs = Array.isArray(raw.logs) ? raw.logs.map(readLogEntry).filter((e): e is LogEntry => e !== undefined) : undefined;
  return {
    id: serverId(id, 'conversão'),
    status: raw.status,
    raw,
    ...defined({
      fileName: text(raw.fileName),
      fileSize: num(raw.fileSize),
      progress: percent(raw.progress),
      queuePosition: num(raw.queuePosition),
      totalInQueue: num(raw.totalInQueue),
      estimatedTime: num(raw.estimatedTime),
      error: text(raw.error),
      canDownload: bool(raw.canDownload),
      createdAt: str(raw.createdAt),
      processingStartedAt: str(raw.processingStartedAt),
      completedAt: str(raw.completedAt),
      convertedSize: num(raw.convertedSize),
      step: text(raw.step),
      logs,
    }),
  };
}

export type ConversionStart = Pick<ConversionStartResponse, 'conversionId'> &
  Partial<Pick<ConversionStartResponse, 'fileName' | 'fileSize' | 'queuePosition' | 'estimatedTime' | 'status' | 'message'>> & { raw: JsonObject };

/** POST /conversion/convert and /conversion/start/{id}: a ConversionStartResponse. */
export function readConversionStart(body: unknown): ConversionStart {
  const raw = expectRecord(body, 'envio');
  const id = str(raw.conversionId);
  if (!id) throw unexpected('envio sem conversionId', body);
  return {
    conversionId: serverId(id, 'conversão'),
    raw,
    ...defined({
      fileName: text(raw.fileName),
      fileSize: num(raw.fileSize),
      queuePosition: num(raw.queuePosition),
      estimatedTime: num(raw.estimatedTime),
      status: isConversionStatus(raw.status) ? raw.status : undefined,
      message: text(raw.message),
    }),
  };
}

/** One real-time message of a conversion (ConversionUpdate), as the event stream delivers it. */
export type UpdateMessage = Pick<ConversionUpdate, 'type'> &
  Partial<Pick<ConversionUpdate, 'conversionId' | 'status' | 'progress' | 'position' | 'totalWaiting' | 'estimatedTime' | 'message' | 'step' | 'error' | 'canDownload'>> & {
    log?: LogEntry;
    raw: JsonObject;
  };

function isUpdateType(v: unknown): v is ConversionUpdate['type'] {
  return typeof v === 'string' && (CONVERSION_UPDATE_TYPES as readonly string[]).includes(v);
}

/** A ConversionUpdate; undefined for anything else (a type this CLI does not know). */
export function readUpdate(data: unknown): UpdateMessage | undefined {
  if (!isRecord(data) || !isUpdateType(data.type)) return undefined;
  return {
    type: data.type,
    raw: data,
    ...defined({
      conversionId: str(data.conversionId),
      status: isConversionStatus(data.status) ? data.status : undefined,
      progress: percent(data.progress),
      position: num(data.position),
      totalWaiting: num(data.totalWaiting),
      estimatedTime: num(data.estimatedTime),
      log: readLogEntry(data.log),
      message: str(data.message),
      step: text(data.step),
      error: text(data.error),
      canDownload: bool(data.canDownload),
    }),
  };
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

/** The estimated wait in words, as the dashboard's queue card says it. */
export function estimateText(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (ms <= 0) return 'a qualquer momento';
  if (ms < 60_000) return 'menos de 1 minuto';
  const minutes = Math.round(ms / 60_000);
  return minutes <= 1 ? '1 minuto' : `${minutes} minutos`;
}

/** The signed-in user (ApiUser) as `whoami` and `login` read it. */
export type Account = Pick<ApiUser, 'email' | 'role'> &
  Partial<Pick<ApiUser, 'id'>> & {
    userType?: NonNullable<ApiUser['userType']>;
    planStatus?: ApiUser['usageSummary']['planAccess'];
    credits?: number;
    expiresAt?: string;
    raw: JsonObject;
  };

function oneOf<T extends string>(values: readonly T[], v: unknown): T | undefined {
  return values.find((value) => value === v);
}

/** GET /auth/me: an ApiUser. */
export function readAccount(body: unknown): Account {
  const raw = expectRecord(body, 'usuário');
  const email = text(raw.email);
  const role = oneOf(USER_ROLES, raw.role);
  if (!email || !role) throw unexpected('usuário sem email ou papel', body);
  const summary = isRecord(raw.usageSummary) ? raw.usageSummary : {};
  return {
    email,
    role,
    raw,
    ...defined({
      id: str(raw.id),
      userType: oneOf(USER_TYPES, raw.userType),
      planStatus: oneOf(PLAN_ACCESS_STATUSES, summary.planAccess),
      credits: isRecord(raw.credits) ? num(raw.credits.available) : undefined,
      expiresAt: isRecord(raw.subscription) ? str(raw.subscription.expiresAt) : undefined,
    }),
  };
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
