/**
 * `aabify convert app.apk [--wait] [-o app.aab] [--options JSON]`: the server mode of `convert`
 * (`--local` is convertLocal.ts, which owns the command and hands the rest to this handler).
 * Streams the APK up (never read whole into memory), then either prints the conversion id or,
 * with --wait (implied by -o), follows it live and downloads the AAB. `aabify convert app.aab`
 * (one bundle alone) is the other kind: the server makes the bundle's universal APK, downloaded
 * as `app.apk` — or with `--device PROFILE` the device set that profile installs, as `app.apks`.
 * Exit 1 when the conversion fails or is cancelled.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { isRecord } from '@aabify/shared/json';
import { assertWritable, downloadAab } from '../aabDownload.js';
import { CliError, EXIT_FAILED, EXIT_OK, toCliError, usageError, type ExitCode } from '../api/errors.js';
import { estimateText, readConversionStart, statusLabel, str } from '../api/types.js';
import { followConversion, getConversion } from '../follow.js';
import { downloadSizeLines, downloadSizesOfReport } from '../signing.js';
import { formatBytes } from '../output.js';
import { requireToken, runRemote, type RemoteContext, type RemoteFlags } from '../remote.js';
import { register as registerConvertCommand, type AssetDeliveryFlag, type AssetPackFlag, type ConvertOptions } from './convertLocal.js';
import { checklistExitCode, checklistLines, failOnDoc, failingRows, type FailOnLevel } from '../checklist.js';
import { CONVERSION_MESSAGES, hasUploadExtension, isAabFileName, outputFileName, type ConversionKind } from '@aabify/shared/conversions';
import { TEST_APK_MESSAGES } from '@aabify/shared/testApk';
import type { UploadFile } from '../api/client.js';
import { writeCiFiles, type CiFileFlags } from '../ciFiles.js';
import { TIMEOUT_OPTION_HELP, waitTimeoutOf } from '../waitTimeout.js';
import { serverConvertResult } from '../convertResult.js';
import { playKeyText, publicationLine, publishDirect, publishThroughServer, releaseFrom, withReleaseOptions, type PublicationResult, type ReleaseFlags } from '../publishing.js';

export interface RemoteConvertFlags extends RemoteFlags, CiFileFlags, ReleaseFlags {
  /** After the download, publish the AAB to this Google Play track (docs/play.md). */
  publish?: string;
  obb?: string[];
  assetPack?: AssetPackFlag[];
  assetDelivery?: AssetDeliveryFlag;
  output?: string;
  overwrite?: boolean;
  wait?: boolean;
  /** With --wait: give up waiting after this long (waitTimeout.ts). */
  timeout?: string;
  options?: string;
  /** Sign with the upload keystore stored in the account (`aabify keystore upload`). */
  sign?: boolean;
  /** With an .aab: the device set (`.apks`) of this device profile instead of the universal APK. */
  device?: string;
  versionCode?: number | 'play';
  versionName?: string;
  failOn?: FailOnLevel;
  ks?: string;
  ksAlias?: string;
  ksPass?: string;
  keyPass?: string;
}

export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';

/** `--options` must be a JSON object (the server refuses unknown keys with a 400). */
export function parseOptionsJson(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw usageError('--options deve ser um objeto JSON, por exemplo: --options \'{"splits":{"abi":true}}\'', 'INVALID_OPTIONS');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw usageError('--options deve ser um objeto JSON.', 'INVALID_OPTIONS');
  return JSON.stringify(value);
}

/** `--options` with `--sign` merged in as `"sign": true` (the flag wins over the JSON). */
export function conversionOptions(text: string | undefined, sign: boolean | undefined): string | undefined {
  const json = parseOptionsJson(text);
  if (!sign) return json;
  return JSON.stringify({ ...(json ? (JSON.parse(json) as Record<string, unknown>) : {}), sign: true });
}

/** A failed or cancelled conversion as the error of exit code 1. */
export function conversionFailure(conversionId: string, status: string, error: string | undefined): CliError {
  const cancelled = status === 'cancelled';
  const message = cancelled ? 'A conversão foi cancelada.' : (error ?? 'Ocorreu um erro durante o processamento do arquivo');
  return new CliError(cancelled ? 'CONVERSION_CANCELLED' : 'CONVERSION_FAILED', message, EXIT_FAILED, { doc: { conversionId, status } });
}

/** A file of the upload: its path, size and the content type its extension says. */
async function uploadFile(path: string): Promise<UploadFile> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch {
    throw usageError(`Arquivo não encontrado: ${path}`, 'FILE_NOT_FOUND');
  }
  return { path, size, name: basename(path), contentType: /\.apk$/i.test(path) ? APK_CONTENT_TYPE : 'application/octet-stream' };
}

export async function runRemoteConvert(ctx: RemoteContext, inputs: string[], flags: RemoteConvertFlags): Promise<ExitCode> {
  const { api, connection, output } = ctx;
  if (flags.versionCode !== undefined || flags.versionName !== undefined) {
    throw usageError('--version-code e --version-name só valem com --local.');
  }
  if (flags.ks !== undefined || flags.ksAlias !== undefined || flags.ksPass !== undefined || flags.keyPass !== undefined) {
    throw usageError('--ks, --ks-alias, --ks-pass e --key-pass só valem com --local. No servidor, cadastre a chave com aabify keystore upload e use --sign.', 'SIGNING_OPTIONS');
  }
  // The server takes an APK, a split set (.apks, .xapk, .apkm, .zip), more APKs and OBB files in one upload.
  const paths = [...inputs, ...(flags.obb ?? [])];
  const bad = paths.find((p) => !hasUploadExtension(p));
  if (bad) throw usageError(`${CONVERSION_MESSAGES.uploadExtension} (${basename(bad)})`, 'INVALID_EXTENSION');
  const kind = conversionKindOfPaths(paths);
  if (kind === 'aab-to-apks' && (flags.publish !== undefined || flags.assetPack !== undefined || flags.assetDelivery !== undefined)) {
    throw usageError('Com um .aab o servidor gera o APK: --publish, --asset-pack e --asset-delivery valem só para APK → AAB (publique o próprio .aab com aabify publish).', 'INVALID_OPTIONS');
  }
  if (flags.device !== undefined) await checkDeviceProfile(kind, flags.device);
  const options = remoteOptions(flags);
  // Checked before the upload, so a bad release flag costs no credit.
  const release = flags.publish !== undefined ? await releaseFrom(flags.publish, flags) : undefined;
  const playKey = release ? await playKeyText(flags) : undefined;
  const files: UploadFile[] = [];
  for (const p of paths) files.push(await uploadFile(p));
  const size = files.reduce((n, f) => n + f.size, 0);
  requireToken(connection);
  const wait = flags.wait === true || flags.output !== undefined || release !== undefined;
  // Checked before the upload too: a typo must not cost a credit.
  const timeout = waitTimeoutOf(flags.timeout);
  if (flags.timeout !== undefined && !wait) throw usageError('--timeout só vale com --wait (ou -o, --publish): sem esperar, o comando termina logo após o envio.', 'INVALID_TIMEOUT');
  const out = resolve(flags.output ?? outputFileName({ kind, fileName: basename(inputs[0]), options: flags.device !== undefined ? { output: 'device-set' } : {} }));
  const overwrite = flags.overwrite === true;
  // Refused before the upload, so no credit is spent on a result that cannot be saved.
  if (wait) await assertWritable(out, overwrite);

  const name = files.length === 1 ? files[0].name : `${files[0].name} (+${files.length - 1})`;
  const progress = output.progress('Enviando', size);
  let body: unknown;
  try {
    body = await api.upload('/conversion/convert', 'apk', files, options ? { options } : {}, (n) => progress.update(n));
  } finally {
    progress.finish();
  }
  const started = readConversionStart(body);
  const id = started.conversionId;
  const queue = started.queuePosition !== undefined && started.queuePosition > 0 ? `, posição ${started.queuePosition} na fila` : '';
  const estimate = estimateText(started.estimatedTime);
  output.info(`Enviado: ${name} (${formatBytes(size)}). Conversão ${id}${queue}${estimate ? `, estimativa: ${estimate}` : ''}.`);

  if (!wait) {
    output.result(
      {
        conversionId: id,
        status: started.status ?? 'queued',
        fileName: started.fileName ?? name,
        fileSize: started.fileSize ?? size,
        ...(started.queuePosition !== undefined ? { queuePosition: started.queuePosition } : {}),
        ...(started.estimatedTime !== undefined ? { estimatedTime: started.estimatedTime } : {}),
      },
      id,
    );
    await writeCiFiles(flags, { conversionId: id });
    return EXIT_OK;
  }

  const onSigint = (): void => {
    output.endStatus();
    output.info(`Interrompido. A conversão ${id} continua no servidor: aabify status ${id}`);
    process.exit(130);
  };
  process.once('SIGINT', onSigint);
  try {
    const followed = await followConversion(api, output, id, { showLogs: !flags.quiet, showProgress: true, ...(timeout ? { timeout } : {}) });
    const { logs, transport } = followed;
    if (followed.conversion.status !== 'completed') throw conversionFailure(id, followed.conversion.status, followed.conversion.error);
    // A live update may come without the engine's report (signature, download estimate): read it once.
    const conversion = isRecord(followed.conversion.raw.report) ? followed.conversion : await getConversion(api, id);
    output.info(`Conversão ${statusLabel(conversion.status)}.`);
    const signature = isRecord(conversion.raw.report) && isRecord(conversion.raw.report.signature) ? conversion.raw.report.signature : undefined;
    if (signature) output.info(`Assinado com a chave de upload ${str(signature.alias) ?? '?'} (SHA-256 ${str(signature.certificateSha256) ?? '?'}).`);
    // An APK: which key signed it, said as plainly as the page says it.
    const apkSignature = isRecord(conversion.raw.apks) && isRecord(conversion.raw.apks.signature) ? conversion.raw.apks.signature : undefined;
    if (apkSignature) output.info(apkSignature.testKey === true ? TEST_APK_MESSAGES.signedWithTestKey : TEST_APK_MESSAGES.signedWithUploadKey(str(apkSignature.alias) ?? '?'));
    for (const line of downloadSizeLines(downloadSizesOfReport(conversion.raw.report))) output.info(line);
    const saved = await downloadAab(api, output, id, out, overwrite);
    const result = serverConvertResult(id, conversion.raw, saved);
    let publication: PublicationResult | undefined;
    // --fail-on stops at the checklist: a release Play would refuse (or that warns) is not sent.
    const failing = failingRows(result.checklist, flags.failOn);
    if (release && failing.length > 0) output.warn(`a publicação em ${release.track} não foi feita: --fail-on ${flags.failOn} (${failing.map((r) => r.code).join(', ')}).`);
    else if (release) {
      const report = conversion.raw.report;
      const packageName = isRecord(report) ? str(report.packageName) : undefined;
      publication = playKey && packageName ? { ...(await publishDirect(output, saved.path, packageName, playKey, release)), conversionId: id } : await publishThroughServer(ctx, id, release);
    }
    output.result(
      {
        ...result,
        ...failOnDoc(result.checklist, flags.failOn),
        ...(publication ? { publication } : {}),
        status: conversion.status,
        resumedFrom: saved.resumedFrom,
        updates: transport,
        conversion: conversion.raw,
        logs,
      },
      [`${kind === 'apk-to-aab' ? 'AAB' : flags.device !== undefined ? 'Conjunto de APKs' : 'APK'} salvo em ${saved.path} (${formatBytes(saved.bytes)}).`, ...(publication ? [publicationLine(publication)] : []), ...checklistLines(result.checklist)],
    );
    await writeCiFiles(flags, { result });
    return checklistExitCode(result.checklist, flags.failOn);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

export async function runConvert(inputs: string[], _options: ConvertOptions, command: Command): Promise<void> {
  const flags = command.opts<RemoteConvertFlags>();
  await runRemote(flags, async (ctx) => {
    try {
      return await runRemoteConvert(ctx, inputs, flags);
    } catch (e) {
      const error = toCliError(e);
      const conversionId = typeof error.extra.doc?.conversionId === 'string' ? error.extra.doc.conversionId : undefined;
      await writeCiFiles(flags, { failure: { code: error.code, message: error.message, ...(conversionId ? { conversionId } : {}) } });
      throw error;
    }
  });
}

/** An .aab sent alone is an AAB → APK conversion; an .aab among other files is refused before the upload. */
export function conversionKindOfPaths(paths: readonly string[]): ConversionKind {
  if (!paths.some((p) => isAabFileName(p))) return 'apk-to-aab';
  if (paths.length > 1) throw usageError(CONVERSION_MESSAGES.aabNotAlone, 'AAB_NOT_ALONE');
  return 'aab-to-apks';
}

/**
 * `--device` asks the server for a device set: only of an `.aab`, and only for one of the engine's
 * device profiles (the server refuses the others too; checked here so a typo costs no upload).
 */
async function checkDeviceProfile(kind: ConversionKind, device: string): Promise<void> {
  if (kind !== 'aab-to-apks') throw usageError(CONVERSION_MESSAGES.deviceSetNotForApk, 'DEVICE_SET_NOT_FOR_APK');
  const { DEVICE_PROFILES } = await import('@aabify/converter');
  const known = DEVICE_PROFILES.map((p) => p.id);
  if (!known.includes(device)) throw usageError(CONVERSION_MESSAGES.unknownDeviceProfile(known), 'UNKNOWN_DEVICE_PROFILE');
}

/** `--options` with `--sign`, `--device`, `--asset-pack` and `--asset-delivery` merged in (the flags win over the JSON). */
export function remoteOptions(flags: RemoteConvertFlags): string | undefined {
  const json = conversionOptions(flags.options, flags.sign);
  if (flags.assetPack === undefined && flags.assetDelivery === undefined && flags.device === undefined) return json;
  return JSON.stringify({
    ...(json ? (JSON.parse(json) as Record<string, unknown>) : {}),
    ...(flags.assetPack ? { assetPacks: flags.assetPack } : {}),
    ...(flags.assetDelivery ? { assetDelivery: flags.assetDelivery } : {}),
    ...(flags.device !== undefined ? { output: 'device-set', device: flags.device } : {}),
  });
}

/** Registers `convert` (local and server modes) with the server mode's extra flags. */
export function register(program: Command): Command {
  return withReleaseOptions(registerConvertCommand(program, runConvert))
    .option('--publish <faixa>', 'depois de converter, publica o AAB nesta faixa do Google Play (internal, alpha, beta, production…)')
    .option('--wait', 'espera a conversão no servidor terminar e baixa o AAB (implícito com -o)')
    .option('--timeout <tempo>', `com --wait, ${TIMEOUT_OPTION_HELP}`)
    .option('--options <json>', 'opções da conversão no servidor, em JSON')
    .option('--sign', 'assina o AAB no servidor com a chave de upload da conta (aabify keystore upload)')
    .option('--device <perfil>', 'com um .aab: o servidor gera o conjunto de APKs (.apks) deste perfil de aparelho em vez do APK universal: arm64-v8a_xxhdpi_pt-BR, armeabi-v7a_hdpi_en ou x86_64_xhdpi_es')
    .option('--url <url>', 'endereço do servidor aabify (senão AABIFY_URL, o salvo pelo login ou http://localhost:3000)')
    .option('-q, --quiet', 'sem barra de progresso nem logs: só linhas simples e periódicas');
}
