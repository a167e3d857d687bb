/**
 * `aabify convert --local app.apk -o app.aab [--overwrite] [--version-code N] [--version-name S] [--json]`:
 * converts on this machine with the engine, no server. A progress bar on a terminal, plain lines
 * otherwise (CI logs), then the report in pt-BR (or as JSON).
 *
 * `convert` without `--local` is the server mode: whoever adds it passes its handler to
 * `register(program, remote)` and adds its options to the returned command; until then it is a
 * usage error that says to use `--local`.
 */
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { ConversionReport } from '@aabify/converter';
import { EXIT_CHECKLIST, EXIT_USAGE } from '../exitCodes.js';
import { versionCodeAgainstPlay } from '@aabify/shared/playChecklist';
import { usageError } from '../api/errors.js';
import { checklistExitCode, checklistLines, failOnDoc, parseFailOn, type FailOnLevel } from '../checklist.js';
import { highestVersionCodeWithKey, playKeyText } from '../publishing.js';
import { apkFactRows, describeFailure, formatBytes, formatRows, formatSeconds, reportFailure } from '../format.js';
import { downloadSizeLines, parsePasswordSpec, signOptionsFrom, signatureLines, type SigningFlags } from '../signing.js';
import { writeCiFiles, type CiFileFlags } from '../ciFiles.js';
import { localConvertResult } from '../convertResult.js';
import { writeJsonDocument } from '../jsonDocument.js';
import { sanitize } from '../safeText.js';

export interface ConvertOptions extends SigningFlags, CiFileFlags {
  local?: boolean;
  output?: string;
  overwrite?: boolean;
  /** A number, or `play`: one above the highest versionCode the app has on Google Play. */
  versionCode?: number | 'play';
  versionName?: string;
  json?: boolean;
  /** A Google Play key (registered with the release flags): the versionCode is compared with Play's. */
  playKey?: string;
  /** Server mode only (the account's keystore); --local signs with --ks. */
  sign?: boolean;
  /** Server mode only (the device set of an .aab); locally, build-apks --device. */
  device?: string;
  obb?: string[];
  assetDelivery?: AssetDeliveryFlag;
  assetPack?: AssetPackFlag[];
  /** Exit EXIT_CHECKLIST when the checklist has a blocker (or, with `warning`, a warning). */
  failOn?: FailOnLevel;
}

export const ASSET_DELIVERY_VALUES = ['install-time', 'fast-follow', 'on-demand'] as const;
export type AssetDeliveryFlag = (typeof ASSET_DELIVERY_VALUES)[number];
export interface AssetPackFlag {
  name: string;
  glob: string;
  delivery?: AssetDeliveryFlag;
}

export function parseAssetDelivery(value: string): AssetDeliveryFlag {
  if (!(ASSET_DELIVERY_VALUES as readonly string[]).includes(value)) throw new InvalidArgumentError(`use ${ASSET_DELIVERY_VALUES.join(', ')}.`);
  return value as AssetDeliveryFlag;
}

/** `NAME=GLOB[:delivery]`, repeatable: e.g. `levels=levels/**:fast-follow`. */
export function parseAssetPack(value: string, previous: AssetPackFlag[] = []): AssetPackFlag[] {
  const m = /^([A-Za-z][A-Za-z0-9_]*)=(.+?)(?::(install-time|fast-follow|on-demand))?$/.exec(value);
  if (!m) throw new InvalidArgumentError('use NOME=GLOB[:entrega], por exemplo recursos=levels/**:fast-follow (nome com letras, números e _).');
  return [...previous, { name: m[1], glob: m[2], ...(m[3] ? { delivery: m[3] as AssetDeliveryFlag } : {}) }];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** What `convert` runs without `--local` (the server mode, registered elsewhere). */
export type ConvertHandler = (inputs: string[], options: ConvertOptions, command: Command) => Promise<void>;

/** `--version-code` of `convert`: a number, or `play` (one above the app's highest on Google Play; needs a Play key). */
export function parseVersionCodeOrPlay(value: string): number | 'play' {
  return value === 'play' ? 'play' : parseVersionCode(value);
}

/** Play accepts version codes from 1 to 2100000000. */
export function parseVersionCode(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('o código de versão deve ser um número inteiro positivo.');
  const n = Number(value);
  if (n < 1 || n > 2_100_000_000) throw new InvalidArgumentError('o código de versão deve estar entre 1 e 2100000000.');
  return n;
}

const STAGE_LABELS: Record<string, string> = {
  reading: 'Lendo o APK',
  manifest: 'Convertendo o manifesto',
  resources: 'Convertendo os recursos',
  validating: 'Validando o bundle',
  writing: 'Gravando o AAB',
  done: 'Concluído',
};


export interface Progress {
  update(stage: string, fraction: number): void;
  finish(): void;
}

/**
 * On a terminal: one bar redrawn in place. Otherwise (CI logs, pipes): one line per stage.
 * Always on stderr, so stdout carries only the result.
 */
export function createProgress(stream: NodeJS.WriteStream, tty: boolean, labels: Readonly<Record<string, string>> = STAGE_LABELS): Progress {
  const stageLabel = (stage: string): string => labels[stage] ?? stage;
  const width = 30;
  let lastStage = '';
  let lastDrawn = '';
  return {
    update(stage, fraction) {
      if (!tty) {
        if (stage !== lastStage && stage !== 'done') stream.write(`${stageLabel(stage)}…\n`);
        lastStage = stage;
        return;
      }
      const f = Math.min(1, Math.max(0, fraction));
      const filled = Math.round(f * width);
      const line = `${stageLabel(stage).padEnd(26)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(f * 100)).padStart(3)}%`;
      if (line === lastDrawn) return;
      lastDrawn = line;
      stream.write(`\r${line}`);
    },
    finish() {
      if (tty && lastDrawn) stream.write('\r\x1b[2K');
    },
  };
}

const KIND_LABELS: Record<string, string> = { base: 'base', feature: 'recurso (feature)', 'asset-pack': 'pacote de assets' };

/** The bundle's modules with their sizes, and the split set's APKs and where each went. */
export function moduleLines(report: ConversionReport): string[] {
  const lines = ['Módulos:'];
  for (const m of report.modules) {
    lines.push(`  - ${m.name}: ${KIND_LABELS[m.kind] ?? m.kind}${m.delivery ? `, ${m.delivery}` : ''}, ${m.files} arquivos, ${formatBytes(m.sizeBytes)}`);
  }
  if (report.splits.length > 0) {
    lines.push(`Splits mesclados (${report.container}):`);
    for (const s of report.splits) lines.push(`  - ${s.source} → ${s.module} (${s.role})`);
  }
  return lines;
}

/** The report as a pt-BR summary for people. */
export function formatReportSummary(report: ConversionReport): string {
  const e = report.entries;
  const lines = [
    `AAB gerado: ${report.output}`,
    ...formatRows([
      ...apkFactRows(report),
      ['Entradas', `${e.copiedRaw} copiadas, ${e.converted} convertidas, ${e.dropped} descartadas, ${e.generated} geradas`],
      ['APK → AAB', `${formatBytes(report.sizeIn)} → ${formatBytes(report.sizeOut)}`],
      ['Tempo', formatSeconds(report.durations.total)],
    ]),
    ...moduleLines(report),
    ...(report.signature ? signatureLines(report.signature) : ['Assinatura: não assinado (use --ks para assinar com a chave de upload).']),
    ...downloadSizeLines(report.downloadSizes),
  ];
  if (report.warnings.length > 0) {
    lines.push(`Avisos (${report.warnings.length}):`);
    for (const w of report.warnings) lines.push(`  - ${w.message} [${w.code}]${w.detail ? `\n      ${w.detail}` : ''}`);
  } else {
    lines.push('Nenhum aviso.');
  }
  return lines.join('\n');
}

export async function runConvertLocal(inputs: string[], options: ConvertOptions, command: Command): Promise<void> {
  const json = options.json === true;
  if (!options.output) {
    command.error('erro: informe o arquivo de saída com -o, por exemplo: aabify convert --local app.apk -o app.aab', {
      exitCode: EXIT_USAGE,
      code: 'aabify.missingOutput',
    });
  }
  if (inputs.some((p) => /\.aab$/i.test(p))) {
    command.error('erro: convert --local converte APKs em AAB; para gerar o APK de um .aab nesta máquina, use aabify build-apks app.aab (sem --local, o servidor gera o APK).', {
      exitCode: EXIT_USAGE,
      code: 'aabify.aabNeedsBuildApks',
    });
  }
  if (options.device !== undefined) {
    command.error('erro: --device pede ao servidor o conjunto de APKs de um .aab; nesta máquina, use aabify build-apks app.aab --device PERFIL.', {
      exitCode: EXIT_USAGE,
      code: 'aabify.deviceNeedsServer',
    });
  }
  if (options.sign) {
    command.error('erro: --sign usa a chave de upload da conta no servidor; com --local, assine com --ks <keystore> --ks-pass env:VAR.', {
      exitCode: EXIT_USAGE,
      code: 'aabify.signingOptions',
    });
  }
  let sign: ReturnType<typeof signOptionsFrom>;
  try {
    sign = signOptionsFrom(options);
  } catch (e) {
    command.error(`erro: ${(e as Error).message}`, { exitCode: EXIT_USAGE, code: 'aabify.signingOptions' });
  }
  const progress = json ? undefined : createProgress(process.stderr, process.stderr.isTTY === true);
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    const { convertApk, inspectApk, tuneV8ForConversion } = await import('@aabify/converter');
    tuneV8ForConversion(); // this process exists to convert: less peak RSS and CPU (converter/src/v8flags.ts)
    // With a Play key (--play-key, or AABIFY_PLAY_KEY for --version-code play), the app's highest
    // versionCode on Play: the checklist compares with it, `play` converts with the next one.
    let play: { highest: number | undefined } | undefined;
    if (options.playKey !== undefined || options.versionCode === 'play') {
      const key = await playKeyText({ playKey: options.playKey });
      if (!key) throw usageError('--version-code play precisa da chave do Google Play: --play-key chave.json ou AABIFY_PLAY_KEY.', 'PLAY_KEY_REQUIRED');
      const { packageName } = await inspectApk(inputs, options.obb ? { obb: options.obb } : {});
      play = { highest: await highestVersionCodeWithKey(key, packageName) };
      if (options.versionCode === 'play') {
        process.stderr.write(
          play.highest === undefined ? 'O app ainda não tem versões no Google Play: o AAB mantém o versionCode do APK.\n' : `Maior versionCode no Google Play: ${play.highest}; o AAB sai com ${play.highest + 1}.\n`,
        );
      }
    }
    const versionCode = options.versionCode === 'play' ? (play?.highest !== undefined ? play.highest + 1 : undefined) : options.versionCode;
    const report = await convertApk(inputs, options.output, {
      ...(options.obb ? { obb: options.obb } : {}),
      ...(options.assetDelivery ? { assetDelivery: options.assetDelivery } : {}),
      ...(options.assetPack ? { assetPacks: options.assetPack } : {}),
      overwrite: options.overwrite === true,
      ...(versionCode !== undefined ? { versionCode } : {}),
      ...(options.versionName !== undefined ? { versionName: options.versionName } : {}),
      ...(sign ? { sign } : {}),
      signal: abort.signal,
      onProgress: (stage, fraction) => progress?.update(stage, fraction),
    });
    progress?.finish();
    const result = localConvertResult(report, { output: resolve(report.output), sha256: report.sha256Out }, play ? versionCodeAgainstPlay(report.versionCode, play.highest) : undefined);
    if (json) writeJsonDocument({ ok: true, ...result, ...failOnDoc(result.checklist, options.failOn), report });
    // The report quotes the APK (manifest values, split names, warnings).
    else process.stdout.write(`${sanitize([formatReportSummary(report), ...checklistLines(result.checklist)].join('\n'))}\n`);
    await writeCiFiles(options, { result });
    process.exitCode = checklistExitCode(result.checklist, options.failOn);
  } catch (e) {
    progress?.finish();
    reportFailure(e, json);
    await writeCiFiles(options, { failure: describeFailure(e) });
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

export function register(program: Command, remote?: ConvertHandler): Command {
  return program
    .command('convert')
    .description('converte um APK, ou um conjunto de splits (.apks, .xapk, .apkm, .zip ou vários .apk), em AAB (com --local, nesta máquina, sem o serviço)')
    .argument('<arquivos...>', 'o APK, o conjunto de splits, ou vários APKs do mesmo app (e arquivos .obb)')
    .option('--local', 'converte nesta máquina, sem enviar o APK ao serviço')
    .option('-o, --output <aab>', 'arquivo AAB de saída')
    .option('--overwrite', 'substitui o arquivo de saída se ele já existir')
    .option('--version-code <n|play>', 'substitui o versionCode do manifesto; play: o seguinte ao maior já enviado ao Google Play (com --local e --play-key ou AABIFY_PLAY_KEY)', parseVersionCodeOrPlay)
    .option('--version-name <nome>', 'substitui o versionName do manifesto')
    .option('--json', 'saída em JSON (o relatório completo)')
    .option('--ks <keystore>', 'assina o AAB com a chave de upload deste keystore (PKCS12 ou JKS)')
    .option('--ks-alias <alias>', 'alias da chave no keystore (opcional se houver só uma)')
    .option('--ks-pass <senha>', 'senha do keystore: env:VAR, pass:SENHA ou file:ARQUIVO', parsePasswordSpec)
    .option('--key-pass <senha>', 'senha da chave, se diferente da do keystore (env:, pass: ou file:)', parsePasswordSpec)
    .option('--obb <arquivo>', 'arquivo OBB (main/patch.<versão>.<pacote>.obb) que vira um pacote de assets; repetível', collect)
    .option('--asset-delivery <modo>', 'entrega dos pacotes feitos dos OBB: install-time (padrão), fast-follow ou on-demand', parseAssetDelivery)
    .option('--asset-pack <NOME=GLOB[:entrega]>', 'move os assets que casam com GLOB para o pacote de assets NOME (ex.: fases=levels/**:fast-follow); repetível', parseAssetPack)
    .option('--github-output <arquivo>', 'acrescenta as saídas aab, conversion-id, size e json no formato do GitHub Actions ($GITHUB_OUTPUT)')
    .option('--summary <arquivo>', 'acrescenta um resumo em Markdown (app, versão, tamanhos, estimativa por dispositivo, avisos), ex.: $GITHUB_STEP_SUMMARY')
    .option('--dotenv <arquivo>', 'grava AABIFY_AAB, AABIFY_CONVERSION_ID e AABIFY_AAB_SIZE (relatório dotenv do GitLab CI)')
    .option('--fail-on <nível>', `termina com código ${EXIT_CHECKLIST} se o checklist do Google Play tiver um item que impede a publicação (blocker) ou também um alerta (warning); o AAB é salvo mesmo assim`, parseFailOn)
    .action(async (inputs: string[], options: ConvertOptions, command: Command) => {
      // --publish (convert.ts) goes through the server; offline, the AAB is published with `aabify publish FILE.aab`.
      if (options.local && (options as { publish?: string }).publish !== undefined) {
        command.error('erro: --publish vale no modo servidor; com --local, publique depois com aabify publish app.aab --package PACOTE --play-key CHAVE --track FAIXA.', { exitCode: EXIT_USAGE, code: 'aabify.publishNeedsServer' });
      }
      if (options.local) return runConvertLocal(inputs, options, command);
      if (remote) return remote(inputs, options, command);
      command.error('erro: a conversão pelo serviço aabify ainda não está disponível nesta versão; use --local para converter nesta máquina.', {
        exitCode: EXIT_USAGE,
        code: 'aabify.serverModeUnavailable',
      });
    });
}
