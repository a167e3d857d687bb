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
  /** The previous JWT_SECRET during a rotation: sessions it signed stay valid until they expire. */
  jwtSecretPrevious?: string;
  /** Key of secrets at rest (settings, upload keystores): 32 bytes, kept as base64. */
  encryptionKey?: string;
  /** The previous ENCRYPTION_KEY during a rotation: still opens, and what it opens is re-encrypted at start. */
  encryptionKeyPrevious?: string;
  /** Connections of the Sequelize pool (the other pools are fixed: docs/deploy.md, connection budget). */
  databasePoolMax: number;
  /** Bearer token of GET /metrics; without it the endpoint is off (404). */
  metricsToken?: string;
  role: ProcessRole;
  logLevel: LogLevel;
  storage: StorageKind;
  /** Files of STORAGE=local (default DATA_DIR/files); processes on one host share it. */
  storageDir?: string;
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId: string; secretAccessKey: string };
  paymentProvider?: PaymentProviderName;
  mercadoPago: { accessToken?: string; publicKey?: string; webhookSecret?: string; apiBaseUrl: string };
  publicUrl?: string;
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

const MIN_SECRET_LENGTH = 32;

function readJwtSecret(env: Env, name: string): string | undefined {
  const value = env[name] || undefined;
  if (value !== undefined && value.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(name, `deve ter pelo menos ${MIN_SECRET_LENGTH} caracteres`);
  }
  return value;
}

/** 32 bytes as 64 hex digits or base64; returned as base64 (the form settings/crypto.ts takes). */
function readEncryptionKey(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) bytes = Buffer.from(raw, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) bytes = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!bytes || bytes.length !== 32) {
    throw new ConfigError(name, 'deve ter 32 bytes, em hexadecimal (64 caracteres) ou base64 (gere com: openssl rand -hex 32)');
  }
  return bytes.toString('base64');
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
  const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const role = readEnum(env, 'ROLE', ['all', 'web', 'worker'] as const, 'all')!;
  const jwtSecret = readJwtSecret(env, 'JWT_SECRET');
  const encryptionKey = readEncryptionKey(env, 'ENCRYPTION_KEY');
  // Several processes on one database must sign and encrypt alike: secrets generated per
  // DATA_DIR would differ between them, so the operator gives both.
  if (databaseUrl || role !== 'all') {
    const why = databaseUrl ? 'quando DATABASE_URL está definida' : `com ROLE=${role}`;
    if (!jwtSecret) throw new ConfigError('JWT_SECRET', `é obrigatória ${why} (pelo menos ${MIN_SECRET_LENGTH} caracteres; gere com: openssl rand -base64 48)`);
    if (!encryptionKey) throw new ConfigError('ENCRYPTION_KEY', `é obrigatória ${why} (32 bytes; gere com: openssl rand -hex 32)`);
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN', 'deve ter pelo menos 16 caracteres');
  return {
    port: readInt(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl,
    embeddedPgPort: readInt(env, 'EMBEDDED_PG_PORT', 5433, 1, 65535),
    jwtSecret,
    jwtSecretPrevious: readJwtSecret(env, 'JWT_SECRET_PREVIOUS'),
    encryptionKey,
    encryptionKeyPrevious: readEncryptionKey(env, 'ENCRYPTION_KEY_PREVIOUS'),
    databasePoolMax: readInt(env, 'DATABASE_POOL_MAX', 10, 2, 100),
    metricsToken,
    role,
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
    publicUrl: readUrl(env, 'PUBLIC_URL', ['http:', 'https:']),
    dashboardDir: env.DASHBOARD_DIR ? resolve(env.DASHBOARD_DIR) : undefined,
  };
}
