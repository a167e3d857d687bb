/**
 * `aabify build-apks app.aab [--universal] -o app.apk` and `--device-spec spec.json -o app.apks`
 * (or `--device PERFIL`): builds installable APKs from a bundle on this machine, as bundletool's
 * `build-apks` does (docs/apks.md). Signed with `--ks` like `convert --local`, or with this
 * machine's test key (kept beside the config file, so a new build installs over the last one),
 * which the output says plainly is no key for Google Play.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { ApksReport, DeviceSpec } from '@aabify/converter';
import { configPath } from '../config.js';
import { EXIT_OK, EXIT_USAGE } from '../exitCodes.js';
import { describeFailure, formatBytes, formatDensity, formatRows, formatSeconds, reportFailure } from '../format.js';
import { writeJsonDocument } from '../jsonDocument.js';
import { sanitize } from '../safeText.js';
import { parsePasswordSpec, signOptionsFrom, type SigningFlags } from '../signing.js';
import { createProgress } from './convertLocal.js';

export interface BuildApksFlags extends SigningFlags {
  universal?: boolean;
  deviceSpec?: string;
  device?: string;
  output?: string;
  overwrite?: boolean;
  json?: boolean;
  /** bundletool's name for --ks-alias. */
  ksKeyAlias?: string;
}

const STAGE_LABELS: Record<string, string> = {
  reading: 'Lendo o AAB',
  validating: 'Validando o bundle',
  resources: 'Preparando os APKs',
  writing: 'Gravando os APKs',
  done: 'Concluído',
};

/** Where this machine's test key lives: beside the config file, made on first use. */
export function testKeystorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(configPath(env)), 'test-key.p12');
}

/** The test keystore's path, created (mode 600) when absent. */
async function testKeystore(): Promise<{ keystore: string; storePassword: string }> {
  const { generateTestKeystore, TEST_KEY_PASSWORD } = await import('@aabify/converter');
  const path = testKeystorePath();
  try {
    await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // `wx`: two builds starting together keep whichever key was written first.
    await writeFile(path, generateTestKeystore().keystore, { mode: 0o600, flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    await chmod(path, 0o600);
  }
  return { keystore: path, storePassword: TEST_KEY_PASSWORD };
}

/** The device a device set is built for: a bundletool spec file, or one of the download-size profiles. */
async function deviceSpecOf(flags: BuildApksFlags): Promise<DeviceSpec> {
  const { parseDeviceSpec, deviceSpecOfProfile, DEVICE_PROFILES } = await import('@aabify/converter');
  if (flags.device !== undefined) {
    const profile = DEVICE_PROFILES.find((p) => p.id === flags.device);
    if (!profile) throw Object.assign(new Error(`perfil de aparelho desconhecido: ${flags.device} (use ${DEVICE_PROFILES.map((p) => p.id).join(', ')}).`), { usage: true });
    return deviceSpecOfProfile(profile);
  }
  const path = flags.deviceSpec ?? '';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw Object.assign(new Error(`não foi possível ler a especificação do aparelho ${path} (${(e as Error).message}).`), { usage: true });
  }
  return parseDeviceSpec(text);
}

function deviceLine(spec: DeviceSpec): string {
  return `Android SDK ${spec.sdkVersion}, ${spec.supportedAbis.join(' > ')}, ${formatDensity(spec.screenDensity)} (${spec.screenDensity} dpi), ${spec.supportedLocales.join(', ')}`;
}

/** The report as a pt-BR summary for people. */
export function formatApksSummary(report: ApksReport): string {
  const sig = report.signature;
  const lines = [
    report.mode === 'universal' ? `APK universal gerado: ${report.output}` : `Conjunto de APKs para o aparelho gerado: ${report.output}`,
    ...formatRows([
      ['Pacote', report.packageName],
      ['Versão', `${report.versionName ?? '(não declarada)'} (código ${report.versionCode ?? '?'})`],
      ['SDK mínimo', report.minSdk !== undefined ? String(report.minSdk) : '(não declarado)'],
      ...(report.deviceSpec ? [['Aparelho', deviceLine(report.deviceSpec)] as [string, string]] : []),
      ['Módulos', report.modules.join(', ')],
      ['AAB → APK', `${formatBytes(report.sizeIn)} → ${formatBytes(report.sizeOut)}`],
      ['Tempo', formatSeconds(report.durations.total)],
    ]),
  ];
  if (report.mode === 'device') {
    lines.push(`APKs (${report.apks.length}):`);
    for (const a of report.apks) lines.push(`  - ${a.path}: ${formatBytes(a.sizeBytes)}`);
    lines.push('Para instalar: descompacte o .apks e rode adb install-multiple splits/*.apk (ou bundletool install-apks).');
  }
  lines.push(
    sig.testKey ? 'Assinatura: chave de teste do aabify — NÃO serve para o Google Play:' : 'Assinatura:',
    ...formatRows([
      ['Alias', `${sig.alias} (${sig.keyAlgorithm} ${sig.keySize} bits)`],
      ['Esquemas', `${sig.schemes.join(', ')} (${sig.algorithm}${sig.v1Algorithm ? `; v1 ${sig.v1Algorithm}` : ''})`],
      ['Certificado', sig.subject],
      ['SHA-256', sig.certificateSha256],
    ]),
  );
  if (report.warnings.length > 0) {
    lines.push(`Avisos (${report.warnings.length}):`);
    for (const w of report.warnings) lines.push(`  - ${w.message} [${w.code}]${w.detail ? `\n      ${w.detail}` : ''}`);
  }
  return lines.join('\n');
}

/** `app.aab` → `app.apk` (universal) or `app.apks` (device set), in the current directory. */
export function defaultOutput(input: string, device: boolean): string {
  return `${basename(input).replace(/\.aab$/i, '')}.${device ? 'apks' : 'apk'}`;
}

export async function runBuildApks(input: string, flags: BuildApksFlags, command: Command): Promise<void> {
  const json = flags.json === true;
  const usage = (message: string): never => command.error(`erro: ${message}`, { exitCode: EXIT_USAGE, code: 'aabify.buildApksOptions' });
  const device = flags.deviceSpec !== undefined || flags.device !== undefined;
  if (flags.universal && device) usage('use --universal ou --device-spec/--device, não os dois.');
  if (flags.deviceSpec !== undefined && flags.device !== undefined) usage('use --device-spec ou --device, não os dois.');
  if (flags.ksKeyAlias !== undefined && flags.ksAlias !== undefined && flags.ksKeyAlias !== flags.ksAlias) usage('--ks-key-alias e --ks-alias dizem aliases diferentes.');
  let sign: ReturnType<typeof signOptionsFrom>;
  try {
    sign = signOptionsFrom({ ...flags, ...(flags.ksKeyAlias !== undefined ? { ksAlias: flags.ksKeyAlias } : {}) });
  } catch (e) {
    usage((e as Error).message);
  }
  const output = resolve(flags.output ?? defaultOutput(input, device));
  const progress = json ? undefined : createProgress(process.stderr, process.stderr.isTTY === true, STAGE_LABELS);
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    let deviceSpec: DeviceSpec | undefined;
    try {
      deviceSpec = device ? await deviceSpecOf(flags) : undefined;
    } catch (e) {
      if ((e as { usage?: boolean }).usage) usage((e as Error).message);
      throw e;
    }
    const { buildApks, tuneV8ForConversion } = await import('@aabify/converter');
    tuneV8ForConversion(); // this process exists to build: less peak RSS and CPU (converter/src/v8flags.ts)
    const report = await buildApks(input, output, {
      mode: deviceSpec ? 'device' : 'universal',
      ...(deviceSpec ? { deviceSpec } : {}),
      sign: sign ?? (await testKeystore()),
      overwrite: flags.overwrite === true,
      signal: abort.signal,
      onProgress: (stage, fraction) => progress?.update(stage, fraction),
    });
    progress?.finish();
    if (json) writeJsonDocument({ ok: true, output: report.output, report });
    // The report quotes the bundle (package name, version name, module names).
    else process.stdout.write(`${sanitize(formatApksSummary(report))}\n`);
    process.exitCode = EXIT_OK;
  } catch (e) {
    progress?.finish();
    reportFailure(e, json);
    if (!json && describeFailure(e).code === 'DEVICE_INCOMPATIBLE') process.stderr.write('  Um APK universal (--universal) instala em qualquer aparelho que o app aceite.\n');
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

export function register(program: Command): Command {
  return program
    .command('build-apks')
    .description('gera APKs instaláveis a partir de um AAB, como o bundletool: um APK universal ou o conjunto (.apks) de um aparelho, assinados')
    .argument('<aab>', 'o Android App Bundle (.aab)')
    .option('--universal', 'um único APK que instala em qualquer aparelho (padrão)')
    .option('--device-spec <json>', 'gera o conjunto de splits (.apks) para o aparelho deste arquivo JSON (formato do bundletool get-device-spec)')
    .option('--device <perfil>', 'gera o conjunto de splits (.apks) para um perfil de aparelho: arm64-v8a_xxhdpi_pt-BR, armeabi-v7a_hdpi_en ou x86_64_xhdpi_es')
    .option('-o, --output <arquivo>', 'arquivo de saída (padrão: o nome do AAB com .apk, ou .apks com --device-spec)')
    .option('--overwrite', 'substitui o arquivo de saída se ele já existir')
    .option('--ks <keystore>', 'assina com a chave deste keystore (PKCS12 ou JKS); sem --ks, com a chave de teste do aabify')
    .option('--ks-alias <alias>', 'alias da chave no keystore (opcional se houver só uma)')
    .addOption(new Option('--ks-key-alias <alias>', 'o mesmo que --ks-alias (nome do bundletool)').hideHelp())
    .option('--ks-pass <senha>', 'senha do keystore: env:VAR, pass:SENHA ou file:ARQUIVO', parsePasswordSpec)
    .option('--key-pass <senha>', 'senha da chave, se diferente da do keystore (env:, pass: ou file:)', parsePasswordSpec)
    .option('--json', 'saída em JSON (o relatório completo)')
    .action((input: string, flags: BuildApksFlags, command: Command) => runBuildApks(input, flags, command));
}
