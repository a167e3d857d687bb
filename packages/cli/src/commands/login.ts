/**
 * `aabify login [--url URL] [--token TOKEN | --email EMAIL] [--scopes LIST]`: saves the server
 * URL and an API token in the config file (mode 600). With email and password (asked on a
 * terminal, read from stdin otherwise; then the two-factor code when the account has it) it
 * signs in and creates a personal API token for this machine with the scopes asked for (by
 * default read, conversions, downloads: publishing to Google Play is asked for explicitly); the
 * session used for that ends at once. With `--token` it checks the given token and saves it.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { API_TOKEN_DEFAULT_SCOPES, API_TOKEN_SCOPES, isApiTokenScope, type ApiTokenScope } from '@aabify/shared/accountSecurity';
import { writeConfig } from '../config.js';
import { askCredentials } from '../prompt.js';
import { readAccount, expectRecord, str, unexpected } from '../api/types.js';
import { ApiClient } from '../api/client.js';
import { EXIT_OK, usageError } from '../api/errors.js';
import { endSession, signIn } from '../accountSession.js';
import { runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export interface LoginOptions {
  token?: string;
  email?: string;
  scopes?: string;
}

/** `--scopes read,conversions`: known scopes, at least one, each once. */
export function parseScopes(list: string | undefined): ApiTokenScope[] {
  if (list === undefined) return [...API_TOKEN_DEFAULT_SCOPES];
  const names = [...new Set(list.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
  const unknown = names.filter((s) => !isApiTokenScope(s));
  if (names.length === 0 || unknown.length > 0) {
    throw usageError(`Escopos inválidos${unknown.length ? `: ${unknown.join(', ')}` : ''}. Use uma lista de ${API_TOKEN_SCOPES.join(', ')}.`, 'INVALID_SCOPES');
  }
  return names.filter(isApiTokenScope);
}

async function createApiToken(api: ApiClient, sessionToken: string, scopes: ApiTokenScope[]): Promise<{ token: string; id?: string; scopes: string[] }> {
  const name = `aabify CLI (${hostname()})`.slice(0, 100);
  const body = expectRecord(await api.json('POST', '/auth/tokens', { body: { name, scopes }, token: sessionToken }), 'token de API');
  const token = str(body.token);
  if (!token) throw unexpected('token de API sem segredo', body);
  const id = str(body.id);
  const granted = Array.isArray(body.scopes) ? body.scopes.filter((s): s is string => typeof s === 'string') : scopes;
  return { token, ...(id ? { id } : {}), scopes: granted };
}

export async function runLogin(ctx: RemoteContext, options: LoginOptions): Promise<typeof EXIT_OK> {
  const { connection, output } = ctx;
  const api = new ApiClient({ baseUrl: connection.baseUrl, onNotice: (m) => output.info(m) });
  const previous = connection.config;
  let token: string;
  let tokenId: string | undefined;
  let scopes: string[] | undefined;
  if (options.token) {
    if (options.email) throw usageError('Use --token ou --email, não os dois.');
    if (options.scopes !== undefined) throw usageError('--scopes vale para o token que o login cria; um token dado com --token já tem os seus.');
    token = options.token.trim();
  } else {
    const wanted = parseScopes(options.scopes);
    const { email, password } = await askCredentials(options.email);
    const sessionToken = await signIn(api, email, password);
    try {
      ({ token, id: tokenId, scopes } = await createApiToken(api, sessionToken, wanted));
      // The token an earlier login made on this machine is replaced: revoked (by the session:
      // a token revokes only itself) so they do not pile up.
      if (tokenId && previous.tokenId && previous.token !== token && previous.url === connection.baseUrl) {
        await api.json('DELETE', `/auth/tokens/${encodeURIComponent(previous.tokenId)}`, { token: sessionToken }).catch(() => undefined);
      }
    } finally {
      // The session was only for making the token.
      await endSession(api, sessionToken);
    }
  }
  const account = readAccount(await api.json('GET', '/auth/me', { token }));

  await writeConfig({ url: connection.baseUrl, token, ...(tokenId ? { tokenId } : {}), email: account.email }, connection.configPath);
  output.result(
    { url: connection.baseUrl, email: account.email, role: account.role, ...(tokenId ? { tokenId } : {}), ...(scopes ? { scopes } : {}), configPath: connection.configPath },
    `Login feito como ${account.email} em ${connection.baseUrl}${scopes ? ` (escopos do token: ${scopes.join(', ')})` : ''}. Token salvo em ${connection.configPath}.`,
  );
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(
    program
      .command('login')
      .description('entra no serviço aabify e salva um token de API neste computador')
      .option('--token <token>', 'usa um token de API já criado (no painel) em vez de email e senha')
      .option('--email <email>', 'email da conta (a senha vem do terminal ou da entrada padrão; depois, se a conta pedir, o código de verificação)')
      .option(
        '--scopes <lista>',
        `o que o token criado pode fazer, separado por vírgulas: ${API_TOKEN_SCOPES.join(', ')} (padrão: ${API_TOKEN_DEFAULT_SCOPES.join(',')}; publishing para publicar no Google Play)`,
      ),
  ).action((flags: RemoteFlags & LoginOptions) => runRemote(flags, (ctx) => runLogin(ctx, flags), { token: flags.token }));
}
