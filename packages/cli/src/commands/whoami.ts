/** `aabify whoami`: the signed-in account — email, role, plan status, credits or expiry. */
import type { Command } from 'commander';
import { EXIT_OK } from '../api/errors.js';
import { PLAN_STATUS_LABELS, formatDate, readAccount, type Account } from '../api/types.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export function describeAccount(account: Account): string[] {
  const lines = [`${account.email} (${account.role === 'admin' ? 'administrador' : 'usuário'})`];
  if (account.role === 'admin') {
    lines.push('Plano: administrador (converte sem plano)');
    return lines;
  }
  const plan = account.planStatus ? (PLAN_STATUS_LABELS[account.planStatus] ?? account.planStatus) : undefined;
  if (plan) lines.push(`Plano: ${plan}`);
  if (account.userType === 'subscription') lines.push(`Assinatura válida até: ${formatDate(account.expiresAt) ?? '—'}`);
  else if (account.credits !== undefined) lines.push(`Créditos: ${account.credits}`);
  return lines;
}

export async function runWhoami(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  const { api, connection, output } = ctx;
  requireToken(connection);
  const account = readAccount(await api.json('GET', '/auth/me'));
  output.result(
    {
      url: connection.baseUrl,
      email: account.email,
      role: account.role,
      planStatus: account.planStatus ?? null,
      userType: account.userType ?? null,
      credits: account.credits ?? null,
      expiresAt: account.expiresAt ?? null,
      user: account.raw,
    },
    [...describeAccount(account), `Servidor: ${connection.baseUrl}`],
  );
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(program.command('whoami').description('mostra a conta conectada: email, papel, plano, créditos ou validade')).action(
    (flags: RemoteFlags) => runRemote(flags, runWhoami),
  );
}
