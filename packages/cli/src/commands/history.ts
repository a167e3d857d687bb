/** `aabify history [--status S] [--search Q] [--page N] [--limit N]`: the account's conversions, newest first. */
import { InvalidArgumentError, type Command } from 'commander';
import { EXIT_OK } from '../api/errors.js';
import { expectRecord, formatDate, num, readConversion, statusLabel, type Conversion } from '../api/types.js';
import { formatBytes } from '../output.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export const HISTORY_STATUSES = ['pending', 'queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

interface HistoryFlags extends RemoteFlags {
  status?: string;
  search?: string;
  page?: number;
  limit?: number;
}

function positiveInt(max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new InvalidArgumentError(`deve ser um número inteiro entre 1 e ${max}.`);
    return Number(value);
  };
}

function parseStatus(value: string): string {
  if (!(HISTORY_STATUSES as readonly string[]).includes(value)) throw new InvalidArgumentError(`use um destes: ${HISTORY_STATUSES.join(', ')}.`);
  return value;
}

function table(conversions: Conversion[]): string[] {
  const rows = conversions.map((c) => [c.id, statusLabel(c.status), c.fileName ?? '—', c.fileSize !== undefined ? formatBytes(c.fileSize) : '—', formatDate(c.createdAt) ?? '—']);
  const header = ['ID', 'STATUS', 'ARQUIVO', 'TAMANHO', 'CRIADA EM'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)];
}

export async function runHistory(ctx: RemoteContext, flags: HistoryFlags): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const page = flags.page ?? 1;
  const limit = flags.limit ?? 10;
  const body = expectRecord(
    await ctx.api.json('GET', '/conversion/history', { query: { page, limit, status: flags.status, search: flags.search } }),
    'histórico',
  );
  const list = Array.isArray(body.conversions) ? body.conversions : [];
  const conversions = list.map((c) => readConversion(c));
  const total = num(body.total) ?? conversions.length;
  const totalPages = num(body.totalPages) ?? Math.max(1, Math.ceil(total / limit));
  const human =
    conversions.length === 0
      ? ['Nenhuma conversão encontrada.']
      : [...table(conversions), `Página ${num(body.page) ?? page} de ${totalPages} (${total} ${total === 1 ? 'conversão' : 'conversões'})`];
  ctx.output.result({ ...body, conversions: list }, human);
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(
    program
      .command('history')
      .description('lista as conversões da conta, das mais novas às mais antigas')
      .option('--status <status>', `filtra por status (${HISTORY_STATUSES.join(', ')})`, parseStatus)
      .option('--search <texto>', 'filtra pelo nome do arquivo')
      .option('--page <n>', 'página (padrão 1)', positiveInt(100_000))
      .option('--limit <n>', 'conversões por página (padrão 10, até 100)', positiveInt(100)),
  ).action((flags: HistoryFlags) => runRemote(flags, (ctx) => runHistory(ctx, flags)));
}
