/** `aabify status ID`: where a conversion is (queue, processing, outcome). Exit 0 whatever the outcome. */
import type { Command } from 'commander';
import { isRecord } from '@aabify/shared/json';
import { EXIT_OK } from '../api/errors.js';
import { estimateText, formatDate, statusLabel, type Conversion } from '../api/types.js';
import { getConversion } from '../follow.js';
import { formatBytes } from '../output.js';
import { downloadSizeLines, downloadSizesOfReport } from '../signing.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';

export function describeConversion(c: Conversion): string[] {
  const rows: [string, string | undefined][] = [
    ['Conversão', c.id],
    ['Arquivo', c.fileName],
    ['Status', statusLabel(c.status)],
    ['Progresso', c.progress !== undefined && c.status !== 'completed' ? `${Math.round(c.progress)}%` : undefined],
    ['Etapa', c.status === 'processing' ? c.step : undefined],
    ['Posição na fila', (c.status === 'queued' || c.status === 'pending') && c.queuePosition ? `${c.queuePosition}${c.totalInQueue ? ` de ${c.totalInQueue}` : ''}` : undefined],
    ['Estimativa', c.status === 'queued' || c.status === 'processing' ? estimateText(c.estimatedTime) : undefined],
    ['Tamanho do APK', c.fileSize !== undefined ? formatBytes(c.fileSize) : undefined],
    ['Tamanho do AAB', c.convertedSize !== undefined ? formatBytes(c.convertedSize) : undefined],
    ['Criada em', formatDate(c.createdAt)],
    ['Concluída em', formatDate(c.completedAt)],
    ['Erro', c.status === 'failed' ? (c.error ?? 'Ocorreu um erro durante o processamento do arquivo') : undefined],
    ['Download', c.status === 'completed' ? (c.canDownload === false ? 'indisponível (arquivo expirado)' : `disponível: aabify download ${c.id}`) : undefined],
  ];
  const shown = rows.filter((r): r is [string, string] => r[1] !== undefined);
  const width = Math.max(...shown.map(([l]) => l.length)) + 2;
  const report = isRecord(c.raw) ? c.raw.report : undefined;
  return [...shown.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`), ...(c.status === 'completed' ? downloadSizeLines(downloadSizesOfReport(report)) : [])];
}

export async function runStatus(ctx: RemoteContext, id: string): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const conversion = await getConversion(ctx.api, id);
  ctx.output.result({ conversionId: conversion.id, status: conversion.status, conversion: conversion.raw }, describeConversion(conversion));
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(program.command('status').description('mostra o status de uma conversão no servidor').argument('<id>', 'id da conversão')).action(
    (id: string, flags: RemoteFlags) => runRemote(flags, (ctx) => runStatus(ctx, id)),
  );
}
