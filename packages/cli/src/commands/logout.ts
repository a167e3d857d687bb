/**
 * `aabify logout`: revokes the saved API token on the server when it can (its id from login, or
 * found by prefix in the token list) and removes it from the config file. The server being
 * unreachable is a warning, not a failure: the token is removed locally all the same.
 */
import type { Command } from 'commander';
import { API_TOKEN_PREFIX } from '@aabify/shared/accounts';
import { isRecord } from '@aabify/shared/json';
import { writeConfig } from '../config.js';
import { ApiClient } from '../api/client.js';
import { EXIT_OK, toCliError } from '../api/errors.js';
import { str } from '../api/types.js';
import { runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

/** The id of `token` among the owner's tokens (matched by the prefix the server shows). */
async function findTokenId(api: ApiClient, token: string): Promise<string | undefined> {
  const body = await api.json('GET', '/auth/tokens');
  const list = isRecord(body) && Array.isArray(body.tokens) ? body.tokens : [];
  for (const t of list) {
    if (!isRecord(t)) continue;
    const prefix = str(t.prefix);
    const id = str(t.id);
    if (id && prefix && prefix.length > API_TOKEN_PREFIX.length && token.startsWith(prefix)) return id;
  }
  return undefined;
}

export async function runLogout(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  const { connection, output } = ctx;
  const { config, configPath } = connection;
  if (!config.token) {
    output.result({ revoked: false, removed: false }, 'Nenhum login salvo neste computador.');
    return EXIT_OK;
  }
  const baseUrl = config.url ?? connection.baseUrl;
  const api = new ApiClient({ baseUrl, token: config.token, onNotice: (m) => output.info(m) });
  let revoked = false;
  try {
    const id = config.tokenId ?? (config.token.startsWith(API_TOKEN_PREFIX) ? await findTokenId(api, config.token) : undefined);
    if (id) {
      await api.json('DELETE', `/auth/tokens/${encodeURIComponent(id)}`);
      revoked = true;
    }
  } catch (e) {
    output.warn(`não foi possível revogar o token no servidor: ${toCliError(e).message}`);
  }
  await writeConfig({ ...(config.url ? { url: config.url } : {}) }, configPath);
  output.result(
    { revoked, removed: true, url: baseUrl },
    revoked ? `Token revogado em ${baseUrl} e removido deste computador.` : 'Token removido deste computador.',
  );
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(program.command('logout').description('revoga e remove o token salvo pelo login')).action((flags: RemoteFlags) =>
    runRemote(flags, runLogout),
  );
}
