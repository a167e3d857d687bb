/**
 * Environment configuration, validated once at start. A bad value stops the start with one
 * line naming the variable (ConfigError), never a stack trace.
 */
import { resolve } from 'node:path';
import express from 'express';

export type ProcessRole = 'all' | 'web' | 'worker';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type StorageKind = 'local' | 's3';
/** What PAYMENT_PROVIDER may force (Stripe is configured by its keys alone). */
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
  s3?: S3Config;
  paymentProvider?: PaymentProviderName;
  mercadoPago: { accessToken?: string; publicKey?: string; webhookSecret?: string; apiBaseUrl: string };
  /** Stripe (USD and EUR plans): both keys or neither; apiUrl points the SDK elsewhere (tests' stand-in). */
  stripe?: StripeConfig;
  publicUrl?: string;
  /** E-mail (mail/): SMTP_URL delivers over SMTP; without it messages stay in the outbox table. */
  mail: { smtpUrl?: string; from: string };
  /** Directory of the built dashboard; when absent the server looks beside its own package. */
  dashboardDir?: string;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the client address. */
  trustProxy: TrustProxy;
  /** Google Play publishing (play/): Google's endpoints unless GOOGLE_OAUTH_TOKEN_URL / GOOGLE_PLAY_API_URL say otherwise (tests). */
  googlePlay: { tokenUrl?: string; apiUrl?: string };
  /** NFS-e through Focus NFe (docs/nfse.md): NFSE_API_URL (default its production API) and NFSE_API_TOKEN (the setting's default). */
  nfse: { apiUrl: string; token?: string };
}

/** STORAGE=s3: the bucket and how to reach it (storage/s3.ts). */
export interface S3Config {
  bucket: string;
  region: string;
  /** Non-AWS stores (MinIO, R2, B2); absent = AWS's own endpoint for the region. */
  endpoint?: string;
  /** Bucket in the path (`endpoint/bucket/key`) instead of the host name; MinIO-style endpoints need it. */
  forcePathStyle: boolean;
  /** Both or neither; neither = the SDK's default credential chain (AWS_* variables, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key ('' or ending in '/'), so one bucket can hold several installations. */
  prefix: string;
  /** Downloads answer 302 to a short-lived presigned URL instead of streaming through the server. */
  presignedDownloads: boolean;
}
/** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, and where the API is (STRIPE_API_URL, default Stripe's own). */
export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
}

/** A hop count, all/none, or comma-separated addresses, CIDRs and named ranges. */
export type TrustProxy = boolean | number | string;

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

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(name, `deve ser true ou false (recebido "${raw}")`);
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

function readS3(env: Env): S3Config {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new ConfigError('S3_BUCKET', 'é obrigatória quando STORAGE=s3');
  // S3's rules (3–63 lowercase letters, digits, '.', '-'), loosened for legacy names some stores keep.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(bucket)) {
    throw new ConfigError('S3_BUCKET', `não é um nome de bucket válido (recebido "${bucket}")`);
  }
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new ConfigError('S3_REGION', `não é uma região válida, como us-east-1 ou auto (recebido "${region}")`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (accessKeyId && !secretAccessKey) throw new ConfigError('S3_SECRET_ACCESS_KEY', 'é obrigatória quando S3_ACCESS_KEY_ID é definida');
  if (secretAccessKey && !accessKeyId) throw new ConfigError('S3_ACCESS_KEY_ID', 'é obrigatória quando S3_SECRET_ACCESS_KEY é definida');
  const prefix = (env.S3_PREFIX ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix && !/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(prefix)) {
    throw new ConfigError('S3_PREFIX', `deve ser um caminho simples como "aabify/producao" (recebido "${env.S3_PREFIX}")`);
  }
  return {
    bucket,
    region,
    endpoint: readUrl(env, 'S3_ENDPOINT', ['http:', 'https:']),
    forcePathStyle: readBool(env, 'S3_FORCE_PATH_STYLE', false),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    prefix: prefix ? `${prefix}/` : '',
    presignedDownloads: readBool(env, 'S3_PRESIGNED_DOWNLOADS', false),
  };
}

/** TRUST_PROXY as Express's `trust proxy` takes it; Express itself judges the addresses. */
function readTrustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return 'loopback';
  let value: TrustProxy;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (/^\d+$/.test(raw)) value = Number(raw);
  else value = raw.split(',').map((s) => s.trim()).join(',');
  try {
    express().set('trust proxy', value);
  } catch {
    throw new ConfigError(
      'TRUST_PROXY',
      `deve ser true, false, um número de proxies ou endereços/CIDRs separados por vírgula (loopback, linklocal, uniquelocal) (recebido "${raw}")`,
    );
  }
  return value;
}

/**
 * Stripe charges USD and EUR plans. Without its webhook secret no event could be verified and
 * no payment would ever be applied, so the secret key alone is refused at start; so is
 * PAYMENT_PROVIDER=sandbox beside it (a real provider is never silently left out).
 */
function readStripe(env: Env, paymentProvider: PaymentProviderName | undefined): StripeConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  if (!secretKey) {
    if (webhookSecret) throw new ConfigError('STRIPE_SECRET_KEY', 'é obrigatória quando STRIPE_WEBHOOK_SECRET está definida');
    return undefined;
  }
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/.test(secretKey)) throw new ConfigError('STRIPE_SECRET_KEY', 'deve ser uma chave secreta do Stripe (sk_live_… ou sk_test_…)');
  if (!webhookSecret) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'é obrigatória quando STRIPE_SECRET_KEY está definida (whsec_…, do endpoint de webhook cadastrado no Stripe)');
  if (!/^whsec_[A-Za-z0-9+/=_-]{8,}$/.test(webhookSecret)) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'deve ser o segredo de assinatura de um endpoint de webhook do Stripe (whsec_…)');
  if (paymentProvider === 'sandbox') throw new ConfigError('PAYMENT_PROVIDER', 'não pode ser sandbox quando STRIPE_SECRET_KEY está definida');
  return { secretKey, webhookSecret, apiUrl: readUrl(env, 'STRIPE_API_URL', ['http:', 'https:']) ?? 'https://api.stripe.com' };
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
  const s3 = storage === 's3' ? readS3(env) : undefined;
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
  const publicUrl = readUrl(env, 'PUBLIC_URL', ['http:', 'https:']);
  const metricsToken = env.METRICS_TOKEN || undefined;
  const paymentProvider = readEnum(env, 'PAYMENT_PROVIDER', ['sandbox', 'mercadopago'] as const, undefined);
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
    paymentProvider,
    mercadoPago: {
      accessToken: env.MERCADOPAGO_ACCESS_TOKEN || undefined,
      publicKey: env.MERCADOPAGO_PUBLIC_KEY || undefined,
      webhookSecret: env.MERCADOPAGO_WEBHOOK_SECRET || undefined,
      apiBaseUrl: readUrl(env, 'MERCADOPAGO_API_URL', ['http:', 'https:']) ?? 'https://api.mercadopago.com',
    },
    stripe: readStripe(env, paymentProvider),
    publicUrl,
    mail: readMail(env, publicUrl),
    dashboardDir: env.DASHBOARD_DIR ? resolve(env.DASHBOARD_DIR) : undefined,
    trustProxy: readTrustProxy(env),
    googlePlay: { tokenUrl: readUrl(env, 'GOOGLE_OAUTH_TOKEN_URL', ['http:', 'https:']), apiUrl: readUrl(env, 'GOOGLE_PLAY_API_URL', ['http:', 'https:']) },
    nfse: { apiUrl: readUrl(env, 'NFSE_API_URL', ['http:', 'https:']) ?? 'https://api.focusnfe.com.br', token: env.NFSE_API_TOKEN || undefined },
  };
}
