/**
 * `aabify --version [--json] [--url URL]` (also `aabify version`): the CLI's version, and — when a
 * server is configured (`--url`, AABIFY_URL or the config file of `aabify login`) — the server's,
 * read from GET /api/health within a few seconds. An unreachable server is reported, never a
 * failure: the first line of stdout is always the CLI's version.
 */
import type { Command } from 'commander';
import { isRecord } from '@aabify/shared/json';
import { ApiClient } from '../api/client.js';
import { EXIT_OK, toCliError } from '../api/errors.js';
import { str } from '../api/types.js';
import { resolveConnection } from '../config.js';
import { Output } from '../output.js';
import { CLI_NAME, CLI_VERSION } from '../version.js';

export interface VersionFlags {
  url?: string;
  json?: boolean;
}

const HEALTH_TIMEOUT_MS = 5000;

export interface ServerVersion {
  url: string;
  version: string | null;
  status: string;
  error?: { code: string; message: string };
}

async function serverVersion(flags: VersionFlags): Promise<ServerVersion | null> {
  const connection = await resolveConnection({ url: flags.url });
  if (connection.urlSource === 'default') return null;
  const api = new ApiClient({ baseUrl: connection.baseUrl });
  try {
    const health = await api.json('GET', '/health', { token: null, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body = isRecord(health) ? health : {};
    return { url: connection.baseUrl, version: str(body.version) ?? null, status: str(body.status) ?? 'ok' };
  } catch (e) {
    const error = toCliError(e);
    return { url: connection.baseUrl, version: null, status: 'unreachable', error: { code: error.code, message: error.message } };
  }
}

export async function runVersion(flags: VersionFlags): Promise<void> {
  const output = new Output({ json: flags.json, quiet: true });
  try {
    const server = await serverVersion(flags);
    const lines = [CLI_VERSION];
    if (server) lines.push(server.version ? `servidor ${server.url}: ${server.version}` : `servidor ${server.url}: indisponível (${server.error?.message ?? server.status})`);
    output.result({ name: CLI_NAME, version: CLI_VERSION, node: process.versions.node, server }, lines);
    process.exitCode = EXIT_OK;
  } catch (e) {
    process.exitCode = output.failure(e);
  }
}

export function register(program: Command): Command {
  return program
    .command('version')
    .description('mostra a versão da CLI e, se houver um servidor configurado, a do servidor')
    .option('--url <url>', 'endereço do servidor aabify (senão AABIFY_URL ou o salvo pelo login)')
    .option('--json', 'saída em JSON')
    .action((flags: VersionFlags) => runVersion(flags));
}
