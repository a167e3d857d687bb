/**
 * `aabify download ID [-o FILE] [--overwrite]`: saves a completed conversion's AAB, resuming an
 * interrupted earlier download of the same conversion (see aabDownload.ts). Exit 1 when the
 * conversion failed, was cancelled, is not finished or its files have expired.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { downloadAab } from '../aabDownload.js';
import { CliError, EXIT_FAILED, EXIT_OK } from '../api/errors.js';
import { statusLabel, str } from '../api/types.js';
import { getConversion } from '../follow.js';
import { formatBytes } from '../output.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';
import { conversionFailure } from './convert.js';

interface DownloadFlags extends RemoteFlags {
  output?: string;
  overwrite?: boolean;
}

export async function runDownload(ctx: RemoteContext, id: string, flags: DownloadFlags): Promise<typeof EXIT_OK> {
  const { api, connection, output } = ctx;
  requireToken(connection);
  const conversion = await getConversion(api, id);
  if (conversion.status === 'failed' || conversion.status === 'cancelled') throw conversionFailure(id, conversion.status, conversion.error);
  if (conversion.status !== 'completed') {
    throw new CliError('CONVERSION_NOT_READY', `A conversão ainda não terminou (status: ${statusLabel(conversion.status)}). Use aabify logs ${id} --follow para esperar.`, EXIT_FAILED, {
      doc: { conversionId: id, status: conversion.status },
    });
  }
  if (conversion.canDownload === false) {
    throw new CliError('DOWNLOAD_UNAVAILABLE', 'Download indisponível: os arquivos desta conversão expiraram.', EXIT_FAILED, { doc: { conversionId: id, status: conversion.status } });
  }
  // The server names the output by its kind (the AAB, or the APK of AAB → APK).
  const apkKind = conversion.raw.kind === 'aab-to-apks';
  const fallbackName = str(conversion.raw.filename) ?? (conversion.fileName ? conversion.fileName.replace(/\.apk$/i, '') + '.aab' : `${id}.aab`);
  const out = resolve(flags.output ?? fallbackName.replace(/[/\\]/g, '_'));
  const saved = await downloadAab(api, output, id, out, flags.overwrite === true);
  output.result(
    { conversionId: id, output: saved.path, bytes: saved.bytes, sha256: saved.sha256, resumedFrom: saved.resumedFrom },
    `${apkKind ? 'APK' : 'AAB'} salvo em ${saved.path} (${formatBytes(saved.bytes)}).`,
  );
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(
    program
      .command('download')
      .description('baixa o AAB de uma conversão concluída (continua um download interrompido)')
      .argument('<id>', 'id da conversão')
      .option('-o, --output <aab>', 'arquivo de saída (padrão: nome do APK com .aab)')
      .option('--overwrite', 'substitui o arquivo de saída se ele já existir'),
  ).action((id: string, flags: DownloadFlags) => runRemote(flags, (ctx) => runDownload(ctx, id, flags)));
}
