/**
 * `aabify login [--url URL] [--token TOKEN | --email EMAIL]`: saves the server URL and an API
 * token in the config file (mode 600). With email and password (asked on a terminal, read from
 * stdin otherwise) it signs in and creates a personal API token for this machine; with
 * `--token` it checks the given token and saves it.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { writeConfig } from '../config.js';
import { askCredentials } from '../prompt.js';
import { readAccount, expectRecord, str, unexpected } from '../api/types.js';
import { ApiClient } from '../api/client.js';
import { EXIT_OK, usageError } from '../api/errors.js';
import { runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export interface LoginOptions {
  token?: string;
  email?: string;
}

async function createApiToken(api: ApiClient, sessionToken: string): Promise<{ token: string; id?: string }> {
  const name = `aabify CLI (${hostname()})`.slice(0, 100);
  const body = expectRecord(await api.json('POST', '/auth/tokens', { body: { name }, token: sessionToken }), 'token de API');
  const token = str(body.token);
  if (!token) throw unexpected('token de API sem segredo', body);
  const id = str(body.id);
  return { token, ...(id ? { id } : {}) };
}

export async function runLogin(ctx: RemoteContext, options: LoginOptions): Promise<typeof EXIT_OK> {
  const { connection, output } = ctx;
  const api = new ApiClient({ baseUrl: connection.baseUrl, onNotice: (m) => output.info(m) });
  let token: string;
  let tokenId: string | undefined;
  if (options.token) {
    if (options.email) throw usageError('Use --token ou --email, não os dois.');
    token = options.token.trim();
  } else {
    const { email, password } = await askCredentials(options.email);
    const session = expectRecord(await api.json('POST', '/auth/login', { body: { email, password }, token: null }), 'login');
    const sessionToken = str(session.token);
    if (!sessionToken) throw unexpected('login sem token', session);
    ({ token, id: tokenId } = await createApiToken(api, sessionToken));
  }
  const account = readAccount(await api.json('GET', '/auth/me', { token }));

  const previous = connection.config;
  await writeConfig({ url: connection.baseUrl, token, ...(tokenId ? { tokenId } : {}), email: account.email }, connection.configPath);
  // The token an earlier login made on this machine is replaced: revoke it so they do not pile up.
  if (tokenId && previous.tokenId && previous.token !== token && previous.url === connection.baseUrl) {
    await api.json('DELETE', `/auth/tokens/${encodeURIComponent(previous.tokenId)}`, { token }).catch(() => undefined);
  }
  output.result(
    { url: connection.baseUrl, email: account.email, role: account.role, ...(tokenId ? { tokenId } : {}), configPath: connection.configPath },
    `Login feito como ${account.email} em ${connection.baseUrl}. Token salvo em ${connection.configPath}.`,
  );
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(
    program
      .command('login')
      .description('entra no serviço aabify e salva um token de API neste computador')
      .option('--token <token>', 'usa um token de API já criado (no painel) em vez de email e senha')
      .option('--email <email>', 'email da conta (a senha vem do terminal ou da entrada padrão)'),
  ).action((flags: RemoteFlags & LoginOptions) => runRemote(flags, (ctx) => runLogin(ctx, flags), { token: flags.token }));
}
