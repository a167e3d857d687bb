/**
 * Builds installable APKs from an Android App Bundle, as bundletool's `build-apks` would
 * (docs/apks.md): the universal APK, or the set of splits a given device installs. Every APK is
 * signed (v1 where the app installs on Android before 7.0, v2 and v3) with the caller's key, or
 * with a test key said plainly to be no key for Google Play. Same contract as convertApk: input
 * and output paths, options, progress and log callbacks, coded errors, a report; the output is
 * written to `output + '.partial'` and renamed into place, so a failure leaves no file.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { monotonicMs } from '../clock.js';
import type { ConversionLogEntry, SignOptions } from '../convert.js';
import { ConverterError, isConverterError } from '../errors.js';
import { ProgressTracker } from '../progress.js';
import type { ConversionStage, ConversionWarning } from '../report.js';
import { isTestKey, processTestSigningKey } from '../sign/keygen.js';
import { loadSigningKey, type SigningKey } from '../sign/keystore.js';
import { apkSignatureAlgorithm } from '../sign/apk.js';
import { openBundle, type Bundle } from './bundle.js';
import { PathMatchers } from './glob.js';
import { checkDeviceSpec, type DeviceSpec } from './deviceSpec.js';
import { debuggable, effectiveMinSdk, minSdk, packageName, targetSdk, versionCode, versionName } from './manifest.js';
import { apksWarning, type ApkReport, type ApkSignatureReport, type ApksMode, type ApksReport } from './report.js';
import { writeApk, type ApkSigning, type WriteApkOptions } from './serialize.js';
import { planDeviceSet } from './deviceSet.js';
import type { DeviceApk, DeviceSetPlan } from './plan.js';
import { tableOfContents } from './toc.js';
import { planUniversal } from './universal.js';
import { VerifierThreads, ZipWriter } from '../zip/index.js';

export interface BuildApksOptions {
  /** `universal` (default): one APK for every device; `device`: the splits `deviceSpec` installs, as an .apks set. */
  mode?: ApksMode;
  /** The device of a device set (bundletool's --device-spec JSON, parsed). */
  deviceSpec?: DeviceSpec;
  /** The key to sign with (a keystore, as for convertApk); without one, a new test key (never for Google Play). */
  sign?: SignOptions;
  onProgress?(stage: ConversionStage, fraction: number): void;
  onLog?(entry: ConversionLogEntry): void;
  /** Checked between entries; an abort fails with ABORTED and leaves no file. */
  signal?: AbortSignal;
  /** Replace `output` if it exists (otherwise OUTPUT_EXISTS). */
  overwrite?: boolean;
}

function checkOptions(input: string, output: string, o: BuildApksOptions): void {
  const bad = (what: string): never => {
    throw new ConverterError('INVALID_OPTIONS', what, { input: 'aab' });
  };
  if (typeof input !== 'string' || input === '') bad('nenhum arquivo de entrada');
  if (typeof output !== 'string' || output === '') bad('nenhum arquivo de saída');
  if (resolve(input) === resolve(output)) bad('entrada e saída são o mesmo arquivo');
  if (o.mode !== undefined && o.mode !== 'universal' && o.mode !== 'device') bad('mode deve ser universal ou device');
  if ((o.mode ?? 'universal') === 'device' && o.deviceSpec === undefined) bad('o modo device precisa de deviceSpec');
  if (o.sign !== undefined && (typeof o.sign !== 'object' || o.sign === null || typeof o.sign.storePassword !== 'string')) bad('sign precisa de keystore e storePassword');
}

/** File system failures are IO_ERROR; anything else unexpected is INTERNAL. */
function unexpected(e: unknown): ConverterError {
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  return new ConverterError(typeof code === 'string' && /^E[A-Z]+$/.test(code) ? 'IO_ERROR' : 'INTERNAL', message, { cause: e, input: 'aab' });
}

/** How the APKs are signed for an app whose minimum SDK is `minSdkLevel`. */
export function signingFor(key: SigningKey, minSdkLevel: number): ApkSigning {
  if (key.algorithm === 'EC' && minSdkLevel < 18) {
    throw new ConverterError('INVALID_OPTIONS', `chave EC: o Android antes do 4.3 (API 18) não verifica assinaturas ECDSA, e o app declara minSdk ${minSdkLevel}`, { input: 'aab' });
  }
  return { key, v1: minSdkLevel < 24, v1Digest: minSdkLevel < 18 ? 'sha1' : 'sha256' };
}

function signatureReport(signing: ApkSigning): ApkSignatureReport {
  const { key } = signing;
  const leaf = key.chain[0];
  return {
    alias: key.alias,
    subject: leaf.subject,
    keyAlgorithm: key.algorithm,
    keySize: key.bits,
    schemes: signing.v1 ? ['v1', 'v2', 'v3'] : ['v2', 'v3'],
    algorithm: apkSignatureAlgorithm(key).name,
    ...(signing.v1 ? { v1Algorithm: `${signing.v1Digest === 'sha1' ? 'SHA1' : 'SHA256'}with${key.algorithm === 'RSA' ? 'RSA' : 'ECDSA'}` } : {}),
    certificateSha1: leaf.sha1,
    certificateSha256: leaf.sha256,
    notAfter: leaf.notAfter.toISOString(),
    testKey: isTestKey(key),
  };
}

/** Options every APK of a bundle is written with. */
export function writeOptions(bundle: Bundle, signing: ApkSigning, signal: AbortSignal | undefined, onBytes: (n: number) => void): WriteApkOptions {
  const collapsed = bundle.config.optimizations?.resource_optimizations?.collapsed_resource_names;
  const keepNames = new Set((collapsed?.no_collapse_resources ?? []).map((r) => `${r.type ?? ''}/${r.name ?? ''}`));
  const keepTypes = new Set(collapsed?.no_collapse_resource_types ?? []);
  for (const m of bundle.modules) for (const p of m.table?.package ?? []) for (const t of p.type ?? []) {
    if (keepTypes.has(t.name ?? '')) for (const e of t.entry ?? []) keepNames.add(`${t.name ?? ''}/${e.name ?? ''}`);
  }
  return {
    reader: bundle.reader,
    globs: new PathMatchers(bundle.config.compression?.uncompressed_glob ?? []),
    version: bundle.version,
    nativeLibraryAlignment: bundle.optimizations.nativeLibraryAlignment,
    signing,
    collapseNames: collapsed?.collapse_resource_names === true,
    keepNames,
    signal,
    onBytes,
  };
}

/** Builds the universal APK of the bundle at `input` into `output`, or the device set (`mode: 'device'`). */
export async function buildApks(input: string, output: string, options: BuildApksOptions = {}): Promise<ApksReport> {
  const started = monotonicMs();
  checkOptions(input, output, options);
  const mode: ApksMode = options.mode ?? 'universal';
  const deviceSpec = options.deviceSpec !== undefined ? checkDeviceSpec(options.deviceSpec) : undefined;
  const { signal } = options;
  if (signal?.aborted) throw new ConverterError('ABORTED', undefined, { input: 'aab' });
  if (!options.overwrite && existsSync(output)) throw new ConverterError('OUTPUT_EXISTS', output, { input: 'aab' });
  const progress = new ProgressTracker(options.onProgress);
  const log = (level: ConversionLogEntry['level'], step: ConversionStage, message: string): void => options.onLog?.({ level, step, message });
  const partial = `${output}.partial`;
  let bundle: Bundle | undefined;
  let step: ConversionStage = 'reading';
  // A universal APK's raw copies are proven (and hashed, for v1) by worker threads for a large
  // bundle: started now, they get going while the key and the bundle are read. The first one
  // done then takes the v2/v3 signature's chunk digests from the APK as it is written.
  let verifierThreads: VerifierThreads | undefined;
  try {
    if (mode === 'universal') verifierThreads = VerifierThreads.forInput(statSync(input, { throwIfNoEntry: false })?.size ?? 0, undefined, true);
    // The caller's key first: a wrong password fails in milliseconds, before any work.
    const ownKey = options.sign ? await loadSigningKey(options.sign) : undefined;
    progress.report('reading', 0);
    bundle = await openBundle(input, signal);
    const key = ownKey ?? processTestSigningKey();
    progress.report('reading', 1);
    log('info', 'reading', `AAB aberto: ${bundle.modules.length} módulo(s), ${bundle.reader.entries.length} arquivos, ${bundle.sizeBytes} bytes`);
    progress.report('validating', 1);

    const warnings: ConversionWarning[] = [];
    const minSdkLevel = effectiveMinSdk(bundle.base.manifest);
    const signing = signingFor(key, minSdkLevel);
    const signature = signatureReport(signing);
    if (signature.testKey) warnings.push(apksWarning('TEST_KEY_SIGNED', signature.subject));
    if (/(^|, )CN=Android Debug(,|$)/.test(signature.subject)) warnings.push(apksWarning('DEBUG_CERTIFICATE', signature.subject));
    if (debuggable(bundle.base.manifest)) warnings.push(apksWarning('DEBUGGABLE_APP'));
    if (mode === 'device' && deviceSpec) {
      step = 'resources';
      progress.report('resources', 0);
      const plan = planDeviceSet(bundle, deviceSpec);
      progress.report('resources', 1);
      step = 'writing';
      const written = await writeDeviceSet(bundle, plan, partial, key, signal, (f) => progress.report('writing', f));
      if (written.dropped.length > 0) warnings.push(apksWarning('INPUT_SIGNATURE_FILES_DROPPED', written.dropped.join(', ')));
      if (!options.overwrite && existsSync(output)) throw new ConverterError('OUTPUT_EXISTS', output, { input: 'aab' });
      renameSync(partial, output);
      progress.report('writing', 1);
      log('info', 'writing', `Conjunto de ${written.apks.length} APK(s) para o aparelho gravado: ${written.sizeBytes} bytes, assinado (${signature.schemes.join(', ')}) com "${key.alias}"${signature.testKey ? ' — chave de teste, não serve para o Google Play' : ''}`);
      for (const w of warnings) log('warn', 'writing', w.message);
      progress.report('done', 1);
      return report(bundle, { input, output, mode, deviceSpec, modules: [...new Set(plan.apks.map((p) => p.module))], apks: written.apks, sizeOut: written.sizeBytes, signature, warnings, progress, started });
    }

    step = 'resources';
    progress.report('resources', 0);
    const plan = planUniversal(bundle);
    progress.report('resources', 1);

    step = 'writing';
    progress.report('writing', 0);
    const total = plan.files.reduce((n, f) => n + (f.entry?.compressedSize ?? f.data?.length ?? 0), 0) || 1;
    let done = 0;
    rmSync(partial, { force: true });
    const written = await writeApk(plan, partial, { ...writeOptions(bundle, signing, signal, (n) => progress.report('writing', (done += n) / total)), verifierThreads });
    if (written.droppedSignatureFiles.length > 0) warnings.push(apksWarning('INPUT_SIGNATURE_FILES_DROPPED', written.droppedSignatureFiles.join(', ')));
    if (!options.overwrite && existsSync(output)) throw new ConverterError('OUTPUT_EXISTS', output, { input: 'aab' });
    renameSync(partial, output);
    progress.report('writing', 1);
    log('info', 'writing', `APK universal gravado: ${written.sizeBytes} bytes, assinado (${signature.schemes.join(', ')}) com "${key.alias}"${signature.testKey ? ' — chave de teste, não serve para o Google Play' : ''}`);
    for (const w of warnings) log('warn', 'writing', w.message);
    progress.report('done', 1);
    const apk: ApkReport = { name: 'universal', path: output, module: 'base', sizeBytes: written.sizeBytes, entries: written.entries };
    return report(bundle, { input, output, mode, modules: plan.modules, apks: [apk], sizeOut: written.sizeBytes, signature, warnings, progress, started });
  } catch (e) {
    await rm(partial, { force: true }).catch(() => undefined);
    const err = isConverterError(e) ? e : unexpected(e);
    log('error', step, err.detail ? `${err.message} (${err.detail})` : err.message);
    throw err;
  } finally {
    await verifierThreads?.close();
    await bundle?.reader.close();
  }
}

interface ReportParts {
  input: string;
  output: string;
  mode: ApksMode;
  deviceSpec?: DeviceSpec;
  modules: string[];
  apks: ApkReport[];
  sizeOut: number;
  signature: ApkSignatureReport;
  warnings: ConversionWarning[];
  progress: ProgressTracker;
  started: number;
}

function report(bundle: Bundle, p: ReportParts): ApksReport {
  const manifest = bundle.base.manifest;
  return {
    input: p.input,
    output: p.output,
    mode: p.mode,
    packageName: packageName(manifest),
    versionCode: versionCode(manifest),
    versionName: versionName(manifest),
    minSdk: minSdk(manifest),
    targetSdk: targetSdk(manifest),
    modules: p.modules,
    apks: p.apks,
    ...(p.deviceSpec ? { deviceSpec: p.deviceSpec } : {}),
    sizeIn: bundle.sizeBytes,
    sizeOut: p.sizeOut,
    signature: p.signature,
    durations: { ...p.progress.durations, total: Math.round(monotonicMs() - p.started) },
    warnings: p.warnings,
  };
}

/**
 * How one APK of a device set is signed: as bundletool, for the minimum SDK its own manifest
 * declares, so config splits (no uses-sdk: API 1) carry a SHA-1 v1 signature. Splits install
 * only on Android 5.0+, which never reads v1: an EC key, which v1 cannot use below API 18, signs
 * them as if for API 18 (bundletool fails there).
 */
function deviceApkSigning(key: SigningKey, apk: DeviceApk): ApkSigning {
  const declared = effectiveMinSdk(apk.manifest);
  return signingFor(key, key.algorithm === 'EC' && !apk.path.startsWith('standalones/') ? Math.max(declared, 18) : declared);
}

/**
 * Writes each planned APK of a device set beside the output, then the .apks: its table of
 * contents (toc.pb), then the APKs under their set paths in path order, all stored (as
 * bundletool's ApkSetWriter). Temporary files go.
 */
async function writeDeviceSet(
  bundle: Bundle,
  plan: DeviceSetPlan,
  partial: string,
  key: SigningKey,
  signal: AbortSignal | undefined,
  onFraction: (f: number) => void,
): Promise<{ apks: ApkReport[]; sizeBytes: number; dropped: string[] }> {
  const dir = `${partial}.parts`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const plans = plan.apks;
  const total = plans.reduce((n, p) => n + p.files.reduce((m, f) => m + (f.entry?.compressedSize ?? 0), 0), 0) || 1;
  let done = 0;
  const apks: ApkReport[] = [];
  const dropped = new Set<string>();
  let zip: ZipWriter | undefined;
  try {
    const files: { path: string; file: string; size: number }[] = [];
    for (const [i, p] of plans.entries()) {
      const file = join(dir, `${i}.apk`);
      const w = await writeApk(p, file, writeOptions(bundle, deviceApkSigning(key, p), signal, (n) => onFraction(((done += n) / total) * 0.95)));
      w.droppedSignatureFiles.forEach((f) => dropped.add(f));
      apks.push({ name: p.name, path: p.path, module: p.module, sizeBytes: w.sizeBytes, entries: w.entries });
      files.push({ path: p.path, file, size: w.sizeBytes });
    }
    rmSync(partial, { force: true });
    zip = await ZipWriter.create(partial);
    // The table of contents first, as bundletool writes it.
    await zip.addBuffer('toc.pb', tableOfContents(bundle, plan), { compress: false });
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) await zip.addFile(f.path, f.file, f.size, { signal });
    const { size } = await zip.finish();
    zip = undefined;
    return { apks, sizeBytes: size, dropped: [...dropped] };
  } finally {
    await zip?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

export { parseDeviceSpec, checkDeviceSpec, deviceSpecOfProfile, type DeviceSpec } from './deviceSpec.js';
export type { ApksReport, ApkReport, ApkSignatureReport, ApksMode } from './report.js';
