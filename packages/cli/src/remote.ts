/**
 * What every command that talks to the service shares: the common flags (`--url`, `--json`,
 * `--quiet`), the connection (config.ts), the client, and one place that turns any failure into
 * the message, the `--json` document and the exit code.
 *
 *   export function register(program: Command): Command {
 *     return withRemoteOptions(program.command('status').argument('<id>'))
 *       .action((id: string, flags: RemoteFlags) => runRemote(flags, (ctx) => runStatus(ctx, id)));
 *   }
 */
import type { Command } from 'commander';
import { ApiClient } from './api/client.js';
import { CliError, EXIT_AUTH, EXIT_OK, type ExitCode } from './api/errors.js';
import { cleartextWarning, resolveConnection, type Connection } from './config.js';
import { Output } from './output.js';
import { releaseStdin } from './prompt.js';

export interface RemoteFlags {
  url?: string;
  json?: boolean;
  quiet?: boolean;
}

export interface RemoteContext {
  connection: Connection;
  api: ApiClient;
  output: Output;
}

export function withRemoteOptions(command: Command): Command {
  return command
    .option('--url <url>', 'endereço do servidor aabify (senão AABIFY_URL, o salvo pelo login ou http://localhost:3000)')
    .option('--json', 'saída em JSON (um documento no stdout; textos no stderr)')
    .option('-q, --quiet', 'sem barra de progresso: só linhas simples e periódicas');
}

/** The connection's token, or exit 3 saying how to get one. */
export function requireToken(connection: Connection): string {
  if (connection.token) return connection.token;
  throw new CliError('NOT_LOGGED_IN', 'Nenhum token configurado. Rode aabify login ou defina AABIFY_TOKEN.', EXIT_AUTH);
}

/**
 * Runs one remote command: the body returns its exit code (0 when it returns nothing); any
 * thrown value becomes the failure output and its exit code.
 */
export async function runRemote(flags: RemoteFlags, body: (ctx: RemoteContext) => Promise<ExitCode | void>, extra: { token?: string } = {}): Promise<void> {
  const output = new Output({ json: flags.json, quiet: flags.quiet });
  try {
    const connection = await resolveConnection({ url: flags.url, token: extra.token });
    const cleartext = cleartextWarning(connection.baseUrl);
    if (cleartext) output.warn(cleartext);
    const api = new ApiClient({ baseUrl: connection.baseUrl, token: connection.token, onNotice: (m) => output.info(m) });
    process.exitCode = (await body({ connection, api, output })) ?? EXIT_OK;
  } catch (e) {
    process.exitCode = output.failure(e);
  } finally {
    releaseStdin();
  }
}
