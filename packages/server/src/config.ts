/**
 * Environment configuration, validated once at start. A bad value stops the start with one
 * line naming the variable (ConfigError), never a stack trace.
 */
import { resolve } from 'node:path';

export type ProcessRole = 'all' | 'web' | 'worker';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type StorageKind = 'local' | 's3';
export type PaymentProviderName = 'sandbox' | 'mercadopago';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Port for the embedded Postgres (used only without DATABASE_URL). */
  embeddedPgPort: number;
  jwtSecret?: string;
  role: ProcessRole;
  logLevel: LogLevel;
  storage: StorageKind;
  /** Files of STORAGE=local (default DATA_DIR/files); processes on one host share it. */
  storageDir?: string;
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId: string; secretAccessKey: string };
  paymentProvider?: PaymentProviderName;
  mercadoPago: { accessToken?: string; publicKey?: string; webhookSecret?: string; apiBaseUrl: string };
  publicUrl?: string;
  /** E-mail (mail/): SMTP_URL delivers over SMTP; without it messages stay in the outbox table. */
  mail: { smtpUrl?: string; from: string };
  /** Directory of the built dashboard; when absent the server looks beside its own package. */
  dashboardDir?: string;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`Configuração inválida: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `deve ser um número inteiro (recebido "${raw}")`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `deve estar entre ${min} e ${max} (recebido ${value})`);
  return value;
}

function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T | undefined): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `deve ser um de: ${allowed.join(', ')} (recebido "${raw}")`);
  }
  return raw as T;
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'não é uma URL válida');
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `deve usar ${protocols.join(' ou ')}`);
  }
  return raw;
}

/** `Name <addr@host>` or `addr@host`. */
const MAIL_FROM = /^(?:[^<>\r\n]{1,100} <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

function readMail(env: Env, publicUrl: string | undefined): Config['mail'] {
  const smtpUrl = readUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  // Links in e-mails come from PUBLIC_URL only: a link built from a request's Host header would
  // let anyone have a genuine password-reset link sent that points at their own site.
  if (smtpUrl && !publicUrl) throw new ConfigError('PUBLIC_URL', 'é obrigatória quando SMTP_URL está definida (links dos e-mails)');
  const raw = env.MAIL_FROM?.trim();
  if (raw && !MAIL_FROM.test(raw)) throw new ConfigError('MAIL_FROM', 'deve ser "Nome <endereco@dominio>" ou "endereco@dominio"');
  const host = publicUrl ? new URL(publicUrl).hostname : 'localhost';
  return { smtpUrl, from: raw || `aabify <no-reply@${host}>` };
}

export function loadConfig(env: Env = process.env): Config {
  const storage = readEnum(env, 'STORAGE', ['local', 's3'] as const, 'local')!;
  let s3: Config['s3'];
  if (storage === 's3') {
    const need = (name: string): string => {
      const v = env[name];
      if (!v) throw new ConfigError(name, 'é obrigatória quando STORAGE=s3');
      return v;
    };
    s3 = {
      bucket: need('S3_BUCKET'),
      region: env.S3_REGION || 'us-east-1',
      endpoint: readUrl(env, 'S3_ENDPOINT', ['http:', 'https:']),
      accessKeyId: need('S3_ACCESS_KEY_ID'),
      secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
    };
  }
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET', 'deve ter pelo menos 32 caracteres');
  }
  const publicUrl = readUrl(env, 'PUBLIC_URL', ['http:', 'https:']);
  return {
    port: readInt(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    embeddedPgPort: readInt(env, 'EMBEDDED_PG_PORT', 5433, 1, 65535),
    jwtSecret,
    role: readEnum(env, 'ROLE', ['all', 'web', 'worker'] as const, 'all')!,
    logLevel: readEnum(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info')!,
    storage,
    storageDir: env.STORAGE_DIR ? resolve(env.STORAGE_DIR) : undefined,
    s3,
    paymentProvider: readEnum(env, 'PAYMENT_PROVIDER', ['sandbox', 'mercadopago'] as const, undefined),
    mercadoPago: {
      accessToken: env.MERCADOPAGO_ACCESS_TOKEN || undefined,
      publicKey: env.MERCADOPAGO_PUBLIC_KEY || undefined,
      webhookSecret: env.MERCADOPAGO_WEBHOOK_SECRET || undefined,
      apiBaseUrl: readUrl(env, 'MERCADOPAGO_API_URL', ['http:', 'https:']) ?? 'https://api.mercadopago.com',
    },
    publicUrl,
    mail: readMail(env, publicUrl),
    dashboardDir: env.DASHBOARD_DIR ? resolve(env.DASHBOARD_DIR) : undefined,
  };
}
