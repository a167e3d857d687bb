/** `aabify usage`: the plan and what it still allows (credits, expiry, this month's use). */
import type { Command } from 'commander';
import { EXIT_OK } from '../api/errors.js';
import type { UsageInfo } from '@aabify/shared/conversionJson';
import type { JsonObject } from '@aabify/shared/json';
import { expectRecord, formatDate, num, str } from '../api/types.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

type Usage = Partial<
  Pick<UsageInfo, 'type' | 'hasActivePlan' | 'remainingCredits' | 'expiresAt' | 'isExpired' | 'currentMonthUsage' | 'remaining' | 'totalConversions' | 'canConvert' | 'message'>
>;

/** GET /conversion/usage (UsageInfo): each field kept only when it has its type. */
function readUsage(u: JsonObject): Usage {
  const usage: Usage = {};
  if (u.type === 'credit' || u.type === 'subscription') usage.type = u.type;
  if (typeof u.hasActivePlan === 'boolean') usage.hasActivePlan = u.hasActivePlan;
  if (typeof u.isExpired === 'boolean') usage.isExpired = u.isExpired;
  if (typeof u.canConvert === 'boolean') usage.canConvert = u.canConvert;
  const remainingCredits = num(u.remainingCredits);
  if (remainingCredits !== undefined) usage.remainingCredits = remainingCredits;
  const currentMonthUsage = num(u.currentMonthUsage);
  if (currentMonthUsage !== undefined) usage.currentMonthUsage = currentMonthUsage;
  const totalConversions = num(u.totalConversions);
  if (totalConversions !== undefined) usage.totalConversions = totalConversions;
  const remaining = u.remaining === 'unlimited' ? u.remaining : num(u.remaining);
  if (remaining !== undefined) usage.remaining = remaining;
  const expiresAt = str(u.expiresAt);
  if (expiresAt) usage.expiresAt = expiresAt;
  const message = str(u.message);
  if (message) usage.message = message;
  return usage;
}

export function describeUsage(u: Usage): string[] {
  const lines = [`Plano: ${u.hasActivePlan ? 'ativo' : 'sem plano ativo'}${u.type ? ` (${u.type === 'subscription' ? 'assinatura' : 'créditos'})` : ''}`];
  if (u.type !== 'subscription' && u.remainingCredits !== undefined) lines.push(`Créditos: ${u.remainingCredits}`);
  const expires = formatDate(u.expiresAt ?? undefined);
  if (expires) lines.push(`Validade: ${expires}${u.isExpired ? ' (expirada)' : ''}`);
  if (u.currentMonthUsage !== undefined) lines.push(`Conversões neste mês: ${u.currentMonthUsage}`);
  if (u.remaining !== undefined) lines.push(`Restante: ${u.remaining === 'unlimited' ? 'ilimitado' : String(u.remaining)}`);
  if (u.totalConversions !== undefined) lines.push(`Total de conversões: ${u.totalConversions}`);
  if (u.canConvert !== undefined) lines.push(`Pode converter: ${u.canConvert ? 'sim' : 'não'}`);
  if (u.message) lines.push(u.message);
  return lines;
}

export async function runUsage(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const body = expectRecord(await ctx.api.json('GET', '/conversion/usage'), 'uso');
  ctx.output.result({ usage: body }, describeUsage(readUsage(body)));
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(program.command('usage').description('mostra o plano, os créditos ou a validade e o uso do mês')).action((flags: RemoteFlags) =>
    runRemote(flags, runUsage),
  );
}
