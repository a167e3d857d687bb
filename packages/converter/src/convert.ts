import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ASSET_DELIVERIES, assetPackGlob, type AssetDelivery, type AssetPackRule } from './bundle/assetPacks.js';
import { rawCopyOrder } from './bundle/collect.js';
import { planBundle, type BundlePlan } from './bundle/plan.js';
import { playLimitWarnings } from './bundle/playLimits.js';
import type { SplitOptions } from './bundle/bundleConfig.js';
import { openInputs, type InputFile, type OpenedInputs } from './input/open.js';
import { groupSplits, readSplit, type SplitApk } from './splits/classify.js';
import { ConverterError, isConverterError } from './errors.js';
import { buildSignatureFiles, loadSigningKey, type SigningKey } from './sign/index.js';
import { estimateDownloadSizes, type ParsedTable } from './size/estimate.js';
import { ProgressTracker } from './progress.js';
import { warning, type ConversionReport, type ConversionStage, type ModuleReport, type SignatureReport } from './report.js';
import { runValidators } from './validate/index.js';
import { playFindings, subjectOfPlan } from './checks/index.js';
import { BackgroundVerifier, METHOD_STORED, VERIFY_WORKER_FROM, VerifierThreads, ZipReader, ZipWriter, prepareBuffer, type PreparedBuffer } from './zip/index.js';
import { monotonicMs } from './clock.js';

export interface ConversionLogEntry {
  level: 'info' | 'warn' | 'error';
  step: ConversionStage;
  /** pt-BR, shown to the user in the conversion's log. */
  message: string;
}

export interface ConvertOptions {
  /** Called with each stage's fraction (0..1, never decreasing within a stage). */
  onProgress?(stage: ConversionStage, fraction: number): void;
  onLog?(entry: ConversionLogEntry): void;
  /** Checked between entries and while streaming; an abort fails with ABORTED and leaves no file. */
  signal?: AbortSignal;
  /** Replace `output` if it exists (otherwise OUTPUT_EXISTS). */
  overwrite?: boolean;
  /** Set or replace android:versionCode / versionName in the bundle's manifest. */
  versionCode?: number;
  versionName?: string;
  /** Which splits Google Play may make from the bundle; all enabled by default. */
  splits?: SplitOptions;
  /** Sign the bundle (JAR v1, as jarsigner) with this upload key, for the Play upload. */
  sign?: SignOptions;
  /** OBB expansion files given with the APK (files named *.obb among the inputs count too). */
  obb?: readonly InputFile[];
  /** How Play delivers the asset packs made from OBB files (default install-time). */
  assetDelivery?: AssetDelivery;
  /** Base assets to move into asset packs, by glob. */
  assetPacks?: readonly AssetPackRule[];
}

export interface SignOptions {
  /** A PKCS12 or JKS keystore: its bytes, or a path. */
  keystore: Uint8Array | string;
  storePassword: string;
  /** Optional when the keystore holds a single key. */
  alias?: string;
  /** Defaults to the store password. */
  keyPassword?: string;
}

const MAX_VERSION_CODE = 2_100_000_000;
/** Generated files deflated at once on the thread pool (each holds a zlib stream meanwhile). */
const DEFLATES_IN_FLIGHT = 4;

/** Most asset-pack rules one conversion takes (Play allows at most 100 asset packs per app). */
export const MAX_ASSET_PACK_RULES = 100;

function validInput(f: InputFile): boolean {
  return typeof f === 'string' ? f !== '' : typeof f === 'object' && f !== null && typeof f.path === 'string' && f.path !== '' && typeof f.name === 'string' && f.name !== '';
}

const pathOf = (f: InputFile): string => (typeof f === 'string' ? f : f.path);

function checkOptions(inputs: readonly InputFile[], output: string, o: ConvertOptions): void {
  const bad = (what: string): never => {
    throw new ConverterError('INVALID_OPTIONS', what);
  };
  if (inputs.length === 0 || !inputs.every(validInput)) bad('nenhum arquivo de entrada');
  if (o.obb !== undefined && (!Array.isArray(o.obb) || !o.obb.every(validInput))) bad('obb deve ser uma lista de arquivos');
  const all = [...inputs, ...(o.obb ?? [])];
  if (all.some((i) => resolve(pathOf(i)) === resolve(output))) bad('entrada e saída são o mesmo arquivo');
  if (o.assetDelivery !== undefined && !ASSET_DELIVERIES.includes(o.assetDelivery)) bad(`assetDelivery deve ser ${ASSET_DELIVERIES.join(', ')}`);
  if (o.assetPacks !== undefined) {
    if (!Array.isArray(o.assetPacks) || o.assetPacks.length > MAX_ASSET_PACK_RULES) bad(`assetPacks deve ser uma lista de até ${MAX_ASSET_PACK_RULES} regras`);
    for (const r of o.assetPacks) {
      if (typeof r !== 'object' || r === null || typeof r.name !== 'string' || typeof r.glob !== 'string') bad('cada regra de assetPacks precisa de name e glob');
      assetPackGlob(r); // refuses an empty, over-long or malformed glob before any work
      if (r.delivery !== undefined && !ASSET_DELIVERIES.includes(r.delivery)) bad(`entrega inválida "${String(r.delivery)}" em assetPacks (${r.name})`);
    }
  }
  if (o.versionCode !== undefined && (!Number.isInteger(o.versionCode) || o.versionCode < 1 || o.versionCode > MAX_VERSION_CODE)) {
    bad(`versionCode deve ser um inteiro entre 1 e ${MAX_VERSION_CODE}`);
  }
  if (o.versionName !== undefined && (typeof o.versionName !== 'string' || o.versionName.trim() === '' || o.versionName.length > 256)) {
    bad('versionName deve ser um texto não vazio de até 256 caracteres');
  }
  for (const [k, v] of Object.entries(o.splits ?? {})) {
    if (!['abi', 'density', 'language'].includes(k) || (v !== undefined && typeof v !== 'boolean')) bad(`splits.${k} inválido`);
  }
  if (o.sign !== undefined) {
    const s = o.sign;
    if (typeof s !== 'object' || s === null) bad('sign deve ser um objeto');
    if (typeof s.keystore !== 'string' && !(s.keystore instanceof Uint8Array)) bad('sign.keystore deve ser um caminho ou bytes');
    if (typeof s.storePassword !== 'string') bad('sign.storePassword é obrigatório');
    if (s.alias !== undefined && typeof s.alias !== 'string') bad('sign.alias inválido');
    if (s.keyPassword !== undefined && typeof s.keyPassword !== 'string') bad('sign.keyPassword inválido');
  }
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ConverterError('ABORTED');
}

/**
 * Converts an APK — or a split set (.apks, .xapk, .apkm, a zip of APKs, several APK files), with
 * OBB files — into an Android App Bundle. Everything is converted and validated in memory
 * first; only then is the bundle streamed to `output + '.partial'` and renamed into place, so a
 * failure or an abort never leaves a file behind, and `output` is never half written.
 */
export async function convertApk(input: InputFile | readonly InputFile[], output: string, options: ConvertOptions = {}): Promise<ConversionReport> {
  const started = monotonicMs();
  const { signal } = options;
  const inputs: InputFile[] = Array.isArray(input) ? [...(input as readonly InputFile[])] : [input as InputFile];
  checkOptions(inputs, output, options);
  checkAbort(signal);
  if (!options.overwrite && existsSync(output)) throw new ConverterError('OUTPUT_EXISTS', output);
  const progress = new ProgressTracker(options.onProgress);
  const log = (level: ConversionLogEntry['level'], step: ConversionStage, message: string): void => options.onLog?.({ level, step, message });
  const partial = `${output}.partial`;
  let opened: OpenedInputs | undefined;
  let writer: ZipWriter | undefined;
  const verifiers = new Map<ZipReader, BackgroundVerifier>();
  let verifierThreads: VerifierThreads | undefined;
  let handTable: (t: ParsedTable | undefined) => void = () => undefined;
  let step: ConversionStage = 'reading';
  try {
    // A large input gets a verifier thread, started now so that it boots while the input is read:
    // it proves the raw copies (a second would not help: the conversion on this thread outlasts
    // it). The bundle's SHA-256 is taken here from the bytes as they are written: the verifier
    // thread, the busiest, would have to read the file again for it.
    verifierThreads = VerifierThreads.forInput(inputBytes(inputs), 1);
    // The key first: a wrong password or alias fails in milliseconds, before any conversion work.
    const key: SigningKey | undefined = options.sign ? await loadSigningKey(options.sign) : undefined;
    progress.report('reading', 0);
    opened = await openInputs(inputs, { obb: options.obb, workDir: dirname(resolve(output)), signal });
    const splits: SplitApk[] = [];
    for (const [i, part] of opened.apks.entries()) {
      splits.push(await readSplit(part, signal));
      progress.report('reading', (i + 1) / opened.apks.length);
    }
    const { modules, merged } = groupSplits(splits);
    progress.report('reading', 1);
    const fileCount = splits.reduce((n, s) => n + s.routed.fileCount, 0);
    log('info', 'reading', opened.apks.length === 1 ? `APK aberto: ${fileCount} arquivos, ${opened.sizeBytes} bytes` : `Conjunto de ${opened.apks.length} APKs aberto (${opened.container}): ${fileCount} arquivos, ${opened.sizeBytes} bytes`);
    for (const s of merged) if (opened.apks.length > 1) log('info', 'reading', `${s.source} → módulo "${s.module}" (${s.role})`);
    // What is copied deflated gets its CRC proven (inflated) in the background while the resources
    // convert. Stored entries are checksummed as they are copied, which reads them anyway, unless
    // a verifier thread proves the deflated ones: then it checksums the stored ones too, and the
    // copy on this thread only moves bytes. (A signed bundle inflates the copies anyway, for their
    // digests, while writing.)
    if (!key) {
      for (const s of splits) {
        const copies = rawCopyOrder(s.routed);
        const deflated = copies.filter((e) => e.method !== METHOD_STORED);
        const inThread = deflated.reduce((n, e) => n + e.compressedSize, 0) >= VERIFY_WORKER_FROM;
        verifiers.set(s.part.reader, new BackgroundVerifier(s.part.reader, inThread ? copies : deflated, signal, { pool: verifierThreads, threads: 1 }));
      }
    }

    // The download-size estimate (one APK only) deflates on zlib's thread pool while the resources
    // convert here; it takes the resource table the plan parses instead of parsing its own.
    const single = splits.length === 1 && opened.obbs.length === 0 && (options.assetPacks ?? []).length === 0 ? splits[0] : undefined;
    const resourceTable = new Promise<ParsedTable | undefined>((resolve) => (handTable = resolve));
    const sizes = single
      ? estimateDownloadSizes(single.part.reader, single.routed, { splits: options.splits, signal, resourceTable }).catch(() => [])
      : Promise.resolve([]);

    step = 'manifest';
    const plan = await planBundle({ modules, obbs: opened.obbs, merged, sizeBytes: opened.sizeBytes }, options, {
      signal,
      stage: (s, f) => {
        step = s;
        progress.report(s, f);
      },
      log,
      resourceTable: (table, bytes) => handTable({ table, bytes }),
    });
    handTable(undefined); // no table: the estimate goes on without one

    step = 'validating';
    progress.report('validating', 0);
    checkAbort(signal);
    // The generated files deflate on the thread pool while the plan is validated here.
    const prepared = prepareGenerated(plan, signal);
    await validatePlan(plan, signal);
    // What Google Play refuses beyond the format (native libraries, manifest): warnings for the
    // report's checklist. They read the manifests' messages and each library's first bytes.
    const checksStarted = monotonicMs();
    for (const w of await playFindings(subjectOfPlan(plan.files, plan.modules, signal))) {
      plan.warnings.push(w);
      log('warn', 'validating', w.message);
    }
    const checksMs = monotonicMs() - checksStarted;
    for (const f of plan.files) {
      // Only the validators and the checks read them: the heap may shrink while writing.
      delete f.message;
      delete f.tableView;
    }
    progress.report('validating', 1);
    log('info', 'validating', `AAB validado: ${plan.files.length} arquivos em ${plan.modules.length} módulo(s)`);

    step = 'writing';
    progress.report('writing', 0);
    // File operations from here on are synchronous (each takes microseconds): as thread-pool
    // jobs they waited behind the estimate's and the generated files' deflates queued there.
    rmSync(partial, { force: true });
    writer = await ZipWriter.create(partial, { digest: key !== undefined });
    await writeFiles(plan, writer, verifiers, prepared, (f) => progress.report('writing', f), signal);
    let signature: SignatureReport | undefined;
    let written = plan.files.length;
    if (key) {
      // Digests were taken while writing: signing costs no second read of the bundle.
      const sig = buildSignatureFiles(writer.digests, key);
      for (const f of sig.files) await writer.addBuffer(f.name, f.data);
      written += sig.files.length;
      signature = signatureReport(key, sig.signer, sig.algorithm);
      if (/(^|, )CN=Android Debug(,|$)/.test(key.chain[0].subject)) plan.warnings.push(warning('DEBUG_CERTIFICATE', [], key.chain[0].subject));
      log('info', 'writing', `AAB assinado com a chave "${key.alias}" (${sig.algorithm}, SHA-256 ${key.chain[0].sha256})`);
    }
    const moduleReports = moduleSizes(plan, writer.compressedSizes());
    const { size: sizeOut, sha256: sha256Out } = await writer.finish();
    writer = undefined;
    await checkWritten(partial, written);
    if (!options.overwrite && existsSync(output)) throw new ConverterError('OUTPUT_EXISTS', output);
    renameSync(partial, output);
    progress.report('writing', 1);
    log('info', 'writing', `AAB gravado: ${sizeOut} bytes`);
    for (const w of playLimitWarnings(moduleReports)) {
      plan.warnings.push(w);
      log('warn', 'writing', w.message);
    }

    step = 'done';
    progress.report('done', 0);
    const downloadSizes = await sizes;
    progress.report('done', 1);
    return {
      ...plan.info,
      input: pathOf(inputs[0]),
      inputs: [...inputs, ...(options.obb ?? [])].map(pathOf),
      output,
      container: opened.container,
      modules: moduleReports,
      splits: opened.apks.length > 1 ? merged : [],
      sizeIn: plan.info.sizeBytes,
      sizeOut,
      sha256Out,
      entries: plan.counts,
      durations: { ...progress.durations, checks: Math.round(checksMs * 10) / 10, total: Math.round(monotonicMs() - started) },
      warnings: plan.warnings,
      downloadSizes,
      ...(signature ? { signature } : {}),
    };
  } catch (e) {
    await writer?.destroy();
    await rm(partial, { force: true }).catch(() => undefined);
    const err = isConverterError(e) ? e : unexpected(e);
    log('error', step, err.detail ? `${err.message} (${err.detail})` : err.message);
    throw err;
  } finally {
    handTable(undefined); // a failed plan never handed it: the estimate must not wait forever
    await Promise.all([...verifiers.values()].map((v) => v.cancel()));
    await verifierThreads?.close();
    await opened?.close();
  }
}

/**
 * Starts deflating the plan's generated files, in order, at most DEFLATES_IN_FLIGHT at once (each
 * deflate is one thread-pool job, so they go on while the main thread validates). One promise per
 * generated file's index; after an abort the rest are left to `addBuffer` (never needed then).
 */
function prepareGenerated(plan: BundlePlan, signal?: AbortSignal): Map<number, Promise<PreparedBuffer>> {
  const pending: { data: Uint8Array; resolve: (p: Promise<PreparedBuffer>) => void }[] = [];
  const prepared = new Map<number, Promise<PreparedBuffer>>();
  plan.files.forEach((f, i) => {
    if (!f.data) return;
    const data = f.data;
    prepared.set(i, new Promise<Promise<PreparedBuffer>>((resolve) => pending.push({ data, resolve })).then((p) => p));
  });
  let next = 0;
  const startNext = (): void => {
    if (next >= pending.length) return;
    const { data, resolve } = pending[next++];
    const p = signal?.aborted ? Promise.reject(new ConverterError('ABORTED')) : prepareBuffer(data);
    p.then(startNext, startNext);
    resolve(p);
  };
  for (let k = 0; k < DEFLATES_IN_FLIGHT; k++) startNext();
  for (const p of prepared.values()) p.catch(() => undefined); // awaited in order when written; never an unhandled rejection
  return prepared;
}

/**
 * Writes the planned files in order: generated ones as `prepareGenerated` deflated them, raw
 * copies once their CRC is proven (in the background, or while copying). A function of its own:
 * the hot loop is what V8 optimises, not all of convertApk.
 */
async function writeFiles(
  plan: BundlePlan,
  writer: ZipWriter,
  verifiers: ReadonlyMap<ZipReader, BackgroundVerifier>,
  prepared: ReadonlyMap<number, Promise<PreparedBuffer>>,
  report: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const total = plan.files.reduce((n, f) => n + (f.data?.length ?? f.source?.compressedSize ?? f.file?.size ?? 0), 0) || 1;
  let done = 0;
  const onBytes = (n: number): void => report((done + n) / total);
  for (const [i, f] of plan.files.entries()) {
    checkAbort(signal);
    if (f.data) {
      await writer.addBuffer(f.path, f.data, { prepared: prepared.get(i) });
      done += f.data.length;
    } else if (f.source && f.reader) {
      // Already proven by a whole read (the estimate's of a dex): no wait for the verifier's turn.
      const proven = f.reader.isVerified(f.source) || (await verifiers.get(f.reader)?.settle(f.source)) === true;
      await writer.addRaw(f.path, f.reader, f.source, { signal, verify: !proven, onBytes });
      done += f.source.compressedSize;
    } else if (f.file) {
      await writer.addFile(f.path, f.file.path, f.file.size, { signal, onBytes });
      done += f.file.size;
    }
    report(done / total);
  }
}

/** Each module's compressed size in the archive, from what the writer wrote. */
function moduleSizes(plan: BundlePlan, sizes: ReadonlyMap<string, number>): ModuleReport[] {
  const byModule = new Map<string, number>();
  for (const [name, size] of sizes) {
    const slash = name.indexOf('/');
    if (slash > 0) byModule.set(name.slice(0, slash), (byModule.get(name.slice(0, slash)) ?? 0) + size);
  }
  return plan.modules.map((m) => ({ ...m, sizeBytes: byModule.get(m.name) ?? 0 }));
}

function signatureReport(key: SigningKey, signer: string, algorithm: string): SignatureReport {
  const leaf = key.chain[0];
  return {
    alias: key.alias,
    keystoreFormat: key.format,
    keyAlgorithm: key.algorithm,
    keySize: key.bits,
    signatureAlgorithm: algorithm,
    signerFiles: [`META-INF/${signer}.SF`, `META-INF/${signer}.${key.algorithm === 'RSA' ? 'RSA' : 'EC'}`],
    subject: leaf.subject,
    certificateSha1: leaf.sha1,
    certificateSha256: leaf.sha256,
    notAfter: leaf.notAfter.toISOString(),
  };
}

/** The inputs' size on disk (0 for one that cannot be read: opening it reports why). */
function inputBytes(inputs: readonly InputFile[]): number {
  const size = (f: InputFile): number => {
    try {
      return statSync(pathOf(f), { throwIfNoEntry: false })?.size ?? 0;
    } catch {
      return 0;
    }
  };
  return inputs.reduce((n, f) => n + size(f), 0);
}

/** File system failures (ENOSPC, EACCES ...) are IO_ERROR; anything else is a bug: INTERNAL. */
function unexpected(e: unknown): ConverterError {
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  return new ConverterError(typeof code === 'string' && /^E[A-Z]+$/.test(code) ? 'IO_ERROR' : 'INTERNAL', message, { cause: e });
}

/** The plan against every rule of the "Validation" sections of docs/aab-format.md, before a byte is written. */
async function validatePlan(plan: BundlePlan, signal?: AbortSignal): Promise<void> {
  // Local headers of everything copied raw (their CRCs are proven while copying).
  for (const f of plan.files) {
    if (!f.source || !f.reader) continue;
    checkAbort(signal);
    await f.reader.dataOffset(f.source);
  }
  const problems = await runValidators({
    files: plan.files.map((f) => ({
      path: f.path,
      message: f.message,
      xmlHasRoot: f.xmlHasRoot,
      tableView: f.tableView,
      read: async () => f.data ?? (f.source && f.reader ? f.reader.read(f.source) : new Uint8Array()),
    })),
  });
  if (problems.length > 0) {
    const detail = problems.slice(0, 10).map((p) => `[${p.rule}] ${p.message}`).join(' | ');
    throw new ConverterError('INVALID_BUNDLE', problems.length > 10 ? `${detail} | (+${problems.length - 10})` : detail);
  }
}

/**
 * Re-reads the central directory just written: names, sizes and count must be sound. The size
 * limits meant for uploaded archives do not apply to our own output (an OBB of 1.5 GB is one
 * entry of a valid bundle; Play takes OBB files up to 2 GB).
 */
async function checkWritten(path: string, expected: number): Promise<void> {
  const unbounded = { maxEntryInflatedBytes: Number.MAX_SAFE_INTEGER, maxTotalInflatedBytes: Number.MAX_SAFE_INTEGER };
  const r = await ZipReader.open(path, unbounded).catch((e: unknown) => {
    throw new ConverterError('INTERNAL', `AAB gravado ilegível: ${(e as Error).message}`, { cause: e });
  });
  const count = r.entries.length;
  await r.close();
  if (count !== expected) throw new ConverterError('INTERNAL', `AAB gravado com ${count} entradas, esperadas ${expected}`);
}
