/**
 * The CLI's config file (`$XDG_CONFIG_HOME/aabify/config.json`, else `~/.config/aabify/config.json`,
 * mode 600) and where a command's server URL and token come from:
 * flag → `AABIFY_URL` / `AABIFY_TOKEN` → config file → default URL.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { usageError } from './api/errors.js';

export const DEFAULT_URL = 'http://localhost:3000';

export interface StoredConfig {
  url?: string;
  token?: string;
  /** Id of the API token `login` created, so `logout` can revoke it. */
  tokenId?: string;
  email?: string;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'aabify', 'config.json');
}

export async function readConfig(path: string = configPath()): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw usageError(`O arquivo de configuração ${path} não é um JSON válido. Corrija-o ou apague-o e rode aabify login.`, 'CONFIG_INVALID');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  const config: StoredConfig = {};
  for (const key of ['url', 'token', 'tokenId', 'email'] as const) {
    const v = record[key];
    if (typeof v === 'string' && v !== '') config[key] = v;
  }
  return config;
}

/** Writes atomically (temp file + rename), readable by the owner only. */
export async function writeConfig(config: StoredConfig, path: string = configPath()): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  try {
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** `https://host/`, `https://host/api` → `https://host`; anything but http(s) is a usage error. */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw usageError(`URL do servidor inválida: ${raw}`, 'INVALID_URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`URL do servidor inválida (use http:// ou https://): ${raw}`, 'INVALID_URL');
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '').replace(/\/api$/, '');
}

/**
 * A warning for an `http://` server off this machine: the token would cross the network
 * unencrypted. Not refused — self-hosted servers on a private network exist — but said.
 */
export function cleartextWarning(baseUrl: string): string | undefined {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
  return loopback ? undefined : `o servidor ${url.host} é acessado por http://, sem criptografia: o token e os arquivos trafegam abertos na rede. Use https:// fora de uma rede confiável.`;
}

export type Source = 'flag' | 'env' | 'config' | 'default';

export interface Connection {
  baseUrl: string;
  urlSource: Source;
  token?: string;
  tokenSource?: Exclude<Source, 'default'>;
  config: StoredConfig;
  configPath: string;
}

/** The server and credentials a command uses. */
export async function resolveConnection(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const path = configPath(env);
  const config = await readConfig(path);
  const envUrl = env.AABIFY_URL?.trim() || undefined;
  const envToken = env.AABIFY_TOKEN?.trim() || undefined;
  const [rawUrl, urlSource]: [string, Source] = flags.url
    ? [flags.url, 'flag']
    : envUrl
      ? [envUrl, 'env']
      : config.url
        ? [config.url, 'config']
        : [DEFAULT_URL, 'default'];
  const baseUrl = normalizeUrl(rawUrl);
  let token: string | undefined;
  let tokenSource: Connection['tokenSource'];
  if (flags.token) [token, tokenSource] = [flags.token, 'flag'];
  else if (envToken) [token, tokenSource] = [envToken, 'env'];
  // A stored token belongs to the stored server: never send it to another one.
  else if (config.token && (!config.url || normalizeUrl(config.url) === baseUrl)) [token, tokenSource] = [config.token, 'config'];
  return { baseUrl, urlSource, config, configPath: path, ...(token ? { token, tokenSource } : {}) };
}
