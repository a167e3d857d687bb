/**
 * Signing in with the account's password, for what an API token may not do: making the token
 * itself (`aabify login`) and replacing the account's keys (`keystore upload|delete`, `play
 * credentials set|delete`). When the account has two-factor sign-in the server answers a
 * challenge and the code is asked next (prompt.ts). A session made for one command ends with it.
 */
import { API_TOKEN_PREFIX } from '@aabify/shared/accounts';
import { isTwoFactorChallenge } from '@aabify/shared/accountSecurity';
import { ApiClient } from './api/client.js';
import { CliError } from './api/errors.js';
import { expectRecord, readAccount, str, unexpected } from './api/types.js';
import { askPassword, askTwoFactorCode } from './prompt.js';
import { requireToken, type RemoteContext } from './remote.js';

/** A session token for `email` (the password given, the two-factor code asked when needed). */
export async function signIn(api: ApiClient, email: string, password: string, opts: { stdinFree?: boolean } = {}): Promise<string> {
  const first = expectRecord(await api.json('POST', '/auth/login', { body: { email, password }, token: null }), 'login');
  let session: Record<string, unknown> = first;
  if (isTwoFactorChallenge(first)) {
    const code = await askTwoFactorCode(opts.stdinFree ?? true);
    session = expectRecord(await api.json('POST', '/auth/login/2fa', { body: { challenge: first.challenge, code }, token: null }), 'login');
  }
  const token = str(session.token);
  if (!token) throw unexpected('login sem token', session);
  return token;
}

/** Ends a session made for one command (best effort: it expires anyway). */
export async function endSession(api: ApiClient, sessionToken: string): Promise<void> {
  await api.json('POST', '/auth/logout', { token: sessionToken }).catch(() => undefined);
}

/**
 * Runs `call` with a session of the saved account: the password (and code) asked for the
 * email the token belongs to, the session ended afterwards. `stdinFree` false when stdin
 * carries the command's own data (a key read from `-`).
 */
export async function withAccountSession<T>(ctx: RemoteContext, call: (sessionToken: string) => Promise<T>, opts: { stdinFree?: boolean } = {}): Promise<T> {
  const current = requireToken(ctx.connection);
  // The token's owner (AABIFY_TOKEN may name another account than the saved login).
  const owner = async () => readAccount(await ctx.api.json('GET', '/auth/me')).email;
  if (!current.startsWith(API_TOKEN_PREFIX)) {
    // Already a session's token: it may, once it proved the password in the last minutes.
    try {
      return await call(current);
    } catch (e) {
      if (!(e instanceof CliError && e.code === 'REAUTH_REQUIRED')) throw e;
    }
    const email = await owner();
    await ctx.api.json('POST', '/auth/reauth', { token: current, body: { password: await askPassword(email, opts.stdinFree ?? true) } });
    return call(current);
  }
  const email = await owner();
  ctx.output.info(`Esta alteração precisa da senha da conta ${email} (tokens de API não alteram chaves).`);
  const session = await signIn(ctx.api, email, await askPassword(email, opts.stdinFree ?? true), opts);
  try {
    return await call(session);
  } finally {
    await endSession(ctx.api, session);
  }
}
