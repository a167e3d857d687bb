/** `aabify usage`: the plan and what it still allows (credits, expiry, this month's use). */
import type { Command } from 'commander';
import { EXIT_OK } from '../api/errors.js';
import { expectRecord, formatDate, num, str, type Json } from '../api/types.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export function describeUsage(u: Json): string[] {
  const type = str(u.type) ?? (typeof u.usageSummary === 'object' && u.usageSummary !== null ? str((u.usageSummary as Json).userType) : undefined);
  const active = u.hasActivePlan === true || u.isActive === true;
  const lines = [`Plano: ${active ? 'ativo' : 'sem plano ativo'}${type ? ` (${type === 'subscription' ? 'assinatura' : type === 'credit' ? 'créditos' : type})` : ''}`];
  const credits = num(u.remainingCredits) ?? num(u.credits);
  if (type !== 'subscription' && credits !== undefined) lines.push(`Créditos: ${credits}`);
  const expires = formatDate(str(u.expiresAt));
  if (expires) lines.push(`Validade: ${expires}${u.isExpired === true ? ' (expirada)' : ''}`);
  const month = num(u.currentMonthUsage);
  if (month !== undefined) lines.push(`Conversões neste mês: ${month}`);
  if (u.remaining !== undefined && u.remaining !== null) lines.push(`Restante: ${u.remaining === 'unlimited' ? 'ilimitado' : String(u.remaining)}`);
  const total = num(u.totalConversions);
  if (total !== undefined) lines.push(`Total de conversões: ${total}`);
  if (typeof u.canConvert === 'boolean') lines.push(`Pode converter: ${u.canConvert ? 'sim' : 'não'}`);
  const message = str(u.message);
  if (message) lines.push(message);
  return lines;
}

export async function runUsage(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const body = expectRecord(await ctx.api.json('GET', '/conversion/usage'), 'uso');
  const usage = typeof body.usage === 'object' && body.usage !== null && !Array.isArray(body.usage) ? (body.usage as Json) : body;
  ctx.output.result({ usage }, describeUsage(usage));
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(program.command('usage').description('mostra o plano, os créditos ou a validade e o uso do mês')).action((flags: RemoteFlags) =>
    runRemote(flags, runUsage),
  );
}
