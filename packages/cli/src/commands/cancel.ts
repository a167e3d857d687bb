/** `aabify cancel ID`: cancels a pending, queued or processing conversion (the credit comes back). */
import type { Command } from 'commander';
import { isRecord } from '@aabify/shared/json';
import { EXIT_OK } from '../api/errors.js';
import { str } from '../api/types.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export async function runCancel(ctx: RemoteContext, id: string): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const body = await ctx.api.json('POST', `/conversion/cancel/${encodeURIComponent(id)}`);
  const message = isRecord(body) ? str(body.message) : undefined;
  ctx.output.result({ conversionId: id, status: 'cancelled', ...(message ? { message } : {}) }, message ?? `Conversão ${id} cancelada.`);
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(program.command('cancel').description('cancela uma conversão pendente, na fila ou em processamento').argument('<id>', 'id da conversão')).action(
    (id: string, flags: RemoteFlags) => runRemote(flags, (ctx) => runCancel(ctx, id)),
  );
}
