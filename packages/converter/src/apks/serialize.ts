/**
 * Writes one planned APK (docs/apks.md): the manifest, the resource table and the proto XML
 * files turned into binary (as `aapt2 convert` does for bundletool), every other file copied —
 * as its compressed bytes when the bundle already deflated it and the APK deflates it too,
 * inflated or deflated otherwise —, entries in bundletool's path order, stored data aligned
 * (4 bytes; native libraries to the bundle's page alignment), then signed: JAR (v1) for Android
 * before 7.0, APK Signature Scheme v2 and v3 in the signing block before the central directory.
 */
import { deflateRaw } from 'node:zlib';
import { promisify } from 'node:util';
import { flattenTable } from '../arsc/flatten.js';
import { flattenXml } from '../axml/flatten.js';
import { ConverterError } from '../errors.js';
import type { PbResourceTable } from '../proto/aapt.js';
import { apkSigningBlock, ChunkDigests, contentDigest, apkSignatureAlgorithm } from '../sign/apk.js';
import { buildSignatureFiles, isSignatureFile, type JarDigest } from '../sign/jar.js';
import type { SigningKey } from '../sign/keystore.js';
import { BackgroundVerifier, METHOD_STORED, type VerifierThreads, ZipWriter, crc32, deflateRawSmall, type PreparedBuffer, type ZipEntry, type ZipReader } from '../zip/index.js';
import { METHOD_DEFLATED } from '../zip/central.js';
import { clearVerdict, comparePaths, compressionRules, MANIFEST_MODULE_PATH, type CompressionRules } from './compression.js';
import type { PathMatchers } from './glob.js';
import { extractNativeLibs } from './manifest.js';
import type { Version } from './optimizations.js';
import type { ApkPlan } from './plan.js';
import { stockDeflatedSize } from './stockDeflate.js';

const deflateRawAsync = promisify(deflateRaw);
/** Entries up to this size are deflated in memory when their size decides how they are stored. */
const DEFLATE_IN_MEMORY = 8 * 1024 * 1024;
const STORED_ALIGNMENT = 4;

export interface ApkSigning {
  key: SigningKey;
  /** JAR (v1) signature too: the app installs on Android before 7.0 (minSdk < 24). */
  v1: boolean;
  /** SHA-1 for apps that install on Android before 4.3 (minSdk < 18). */
  v1Digest: JarDigest;
}

export interface WriteApkOptions {
  reader: ZipReader;
  /** The BundleConfig's uncompressed globs. */
  globs: PathMatchers;
  /** The bundletool version that built the bundle (its compression defaults). */
  version: Version;
  nativeLibraryAlignment: number;
  signing?: ApkSigning;
  /** BundleConfig's collapsed resource names. */
  collapseNames?: boolean;
  keepNames?: ReadonlySet<string>;
  signal?: AbortSignal;
  onBytes?(n: number): void;
  /** Verifier threads started ahead, for the raw copies' proofs and digests. */
  verifierThreads?: VerifierThreads;
}

export interface WrittenApk {
  sizeBytes: number;
  entries: number;
  /** Signature files of an input module that had to go (a v1 signature is made anew). */
  droppedSignatureFiles: string[];
}

interface OutEntry {
  path: string;
  modulePath: string;
  entry?: ZipEntry;
  data?: Uint8Array;
  /** Makes `data` (a binary XML file or the table), once the copies' verification has started. */
  make?: () => Uint8Array;
  forced?: boolean;
  /** How a bundle entry is written (see copyMode). */
  mode?: CopyMode;
}

/**
 * How a bundle entry goes into the APK: `raw`, its bytes as they are (stored, or deflated when the
 * APK deflates it too); `inflate`, stored from a deflated entry; `memory`, read and deflated in
 * memory to see whether deflating pays; `deflate-stream`, a large stored entry deflated as it is
 * copied (written again stored when that did not pay).
 */
type CopyMode = 'raw' | 'inflate' | 'memory' | 'deflate-stream';

function copyMode(e: OutEntry, entry: ZipEntry, rules: CompressionRules): CopyMode {
  const stored = entry.method === METHOD_STORED;
  if (rules.forcedUncompressed(e.modulePath, e.path, e.forced)) return stored ? 'raw' : 'inflate';
  if (!stored) {
    let verdict = clearVerdict(rules, e.modulePath, entry.compressedSize, entry.uncompressedSize);
    // Too close to call and too large to deflate again in memory: the bundle's own deflating decides.
    if (verdict === undefined && entry.uncompressedSize > DEFLATE_IN_MEMORY) verdict = rules.worthCompressing(e.modulePath, entry.compressedSize, entry.uncompressedSize);
    if (verdict !== undefined) return verdict ? 'raw' : 'inflate';
  }
  return entry.uncompressedSize <= DEFLATE_IN_MEMORY ? 'memory' : 'deflate-stream';
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new ConverterError('ABORTED', undefined, { input: 'aab' });
}

/** The binary files of the APK's resources, in the order aapt2 writes them (each table file reference in turn). */
function resourceFiles(plan: ApkPlan): OutEntry[] {
  const byModulePath = new Map(plan.files.map((f) => [f.modulePath, f]));
  const out = new Map<string, OutEntry>();
  const table: PbResourceTable | undefined = plan.table;
  for (const p of table?.package ?? []) for (const t of p.type ?? []) for (const e of t.entry ?? []) for (const cv of e.config_value ?? []) {
    const file = cv.value?.item?.file;
    if (!file?.path || out.has(file.path)) continue;
    const path = file.path;
    if (file.type === 3) {
      const node = plan.xml.get(path);
      if (!node) throw new ConverterError('INVALID_AAB', `${path}: XML referenciado pela tabela de recursos não existe ou não é um XmlNode`);
      out.set(path, { path, modulePath: path, make: () => flattenXml(node, { path }) });
    } else {
      const f = byModulePath.get(path);
      if (!f) throw new ConverterError('INVALID_AAB', `${path}: arquivo referenciado pela tabela de recursos não existe`);
      out.set(path, { path, modulePath: path, entry: f.entry, data: f.data });
    }
  }
  return [...out.values()];
}

async function deflated(data: Uint8Array, level: number): Promise<Buffer> {
  return data.length <= 64 * 1024 ? deflateRawSmall(data, level) : deflateRawAsync(data, { level });
}

/** Whether bundletool deflates `data` (which Node deflated to `body`): stock zlib's size settles close calls. */
async function worthDeflating(rules: CompressionRules, modulePath: string, data: Uint8Array, body: Uint8Array, level: 6 | 9): Promise<boolean> {
  const verdict = clearVerdict(rules, modulePath, body.length, data.length);
  if (verdict !== undefined) return verdict;
  return rules.worthCompressing(modulePath, await stockDeflatedSize(data, level), data.length);
}

/** Writes `plan` to `path` (which must not exist). */
export async function writeApk(plan: ApkPlan, path: string, o: WriteApkOptions): Promise<WrittenApk> {
  const { reader, signal } = o;
  // Native libraries stay uncompressed when the APK's own manifest says they are not extracted.
  const rules = compressionRules(o.globs, o.version, extractNativeLibs(plan.manifest) === false);
  const generated: OutEntry[] = [{ path: 'AndroidManifest.xml', modulePath: MANIFEST_MODULE_PATH, make: () => flattenXml(plan.manifest, { utf16: true, path: 'AndroidManifest.xml' }) }];
  const table = plan.table;
  if (table) generated.push({ path: 'resources.arsc', modulePath: 'resources.pb', make: () => flattenTable(table, { collapseNames: o.collapseNames, keepNames: o.keepNames }), forced: true });
  const all: OutEntry[] = [...generated, ...resourceFiles(plan), ...plan.files.filter((f) => !f.modulePath.startsWith('res/')).map((f) => ({ ...f, forced: f.forceUncompressed }))];
  // Two modules' files at one APK path (base/assets/x and base/root/assets/x): the later one wins, as in bundletool.
  const byPath = new Map<string, OutEntry>();
  const dropped: string[] = [];
  for (const e of all) {
    if (o.signing && isSignatureFile(e.path)) {
      dropped.push(e.path);
      continue;
    }
    byPath.delete(e.path);
    byPath.set(e.path, e);
  }
  const entries = [...byPath.values()].sort((a, b) => comparePaths(a.path, b.path));

  const v1 = o.signing?.v1 === true;
  for (const e of entries) if (e.entry && !e.data) e.mode = copyMode(e, e.entry, rules);
  // Raw copies are proven in the background (a worker thread for many bytes) while the resources
  // are flattened here, in the order they are written; for a v1 signature the same pass takes
  // their digests, so the copy only moves bytes. Stored ones only need that digest.
  const copies = entries.filter((e) => e.mode === 'raw' && (v1 || e.entry!.method !== METHOD_STORED)).map((e) => e.entry as ZipEntry);
  const verifier = copies.length === 0 ? undefined : new BackgroundVerifier(reader, copies, signal, { pool: o.verifierThreads, ...(v1 ? { digest: o.signing?.v1Digest } : {}) });
  let writer: ZipWriter | undefined;
  let chunks: ChunkDigests | undefined;
  try {
    for (const e of all) {
      if (!e.make) continue;
      e.data = e.make();
      e.make = undefined;
    }
    const key = o.signing?.key;
    // The v2/v3 content digest is taken from the entries' bytes as they are written: by a verifier
    // thread from the file (the first one done proving the copies), else here as they go by.
    const algorithm = key ? apkSignatureAlgorithm(key).digest : undefined;
    writer = await ZipWriter.create(path, {
      digest: v1,
      digestAlgorithm: o.signing?.v1Digest,
      hash: false,
      noZip64: true,
      ...(algorithm ? { onWrite: (b, at) => chunks?.written(b, at), onOpen: (fd) => (chunks = new ChunkDigests(algorithm, o.verifierThreads?.chunkHasher(fd, algorithm))) } : {}),
    });
    for (const e of entries) {
      checkAbort(signal);
      await writeEntry(writer, e, rules, o, verifier);
    }
    if (o.signing && v1) {
      const sig = buildSignatureFiles(writer.digests, o.signing.key, { digest: o.signing.v1Digest, apkSigned: '2, 3' });
      for (const f of sig.files) await writer.addBuffer(f.name, f.data);
    }
    const signed = key && algorithm && chunks;
    const { size } = await writer.finish(
      signed
        ? { beforeCentralDirectory: async (tail) => apkSigningBlock(key, contentDigest(path, tail.entriesEnd, tail.centralDirectory, tail.endRecord, algorithm, await signed.before(tail.entriesEnd))) }
        : {},
    );
    return { sizeBytes: size, entries: writer.entryCount, droppedSignatureFiles: dropped };
  } catch (e) {
    await writer?.destroy();
    throw e;
  } finally {
    chunks?.dispose();
    await verifier?.cancel();
  }
}

async function writeEntry(writer: ZipWriter, e: OutEntry, rules: CompressionRules, o: WriteApkOptions, verifier: BackgroundVerifier | undefined): Promise<void> {
  const { signal, onBytes } = o;
  const align = e.path.endsWith('.so') ? o.nativeLibraryAlignment : STORED_ALIGNMENT;
  const forced = rules.forcedUncompressed(e.modulePath, e.path, e.forced);
  const level = rules.level(e.path);
  if (e.data) {
    const data = e.data;
    const crc = crc32(data);
    let prepared: PreparedBuffer = { crc, method: METHOD_STORED, body: data };
    if (!forced) {
      const body = await deflated(data, level);
      if (await worthDeflating(rules, e.modulePath, data, body, level)) prepared = { crc, method: METHOD_DEFLATED, body };
    }
    await writer.addBuffer(e.path, data, { prepared: Promise.resolve(prepared), align });
    onBytes?.(data.length);
    return;
  }
  const entry = e.entry as ZipEntry;
  const reader = o.reader;
  switch (e.mode) {
    case 'raw': {
      // Proven (and for v1 hashed) in the background, or else here as it is copied.
      const digest = await verifier?.digest(entry);
      await writer.addRaw(e.path, reader, entry, { signal, verify: !reader.isVerified(entry), digest, align, onBytes });
      return;
    }
    case 'inflate':
      await writer.addInflated(e.path, reader, entry, { signal, align, onBytes });
      return;
    case 'memory': {
      const data = await reader.read(entry, { signal });
      const body = await deflated(data, level);
      const compress = await worthDeflating(rules, e.modulePath, data, body, level);
      const prepared: PreparedBuffer = compress ? { crc: entry.crc32, method: METHOD_DEFLATED, body } : { crc: entry.crc32, method: METHOD_STORED, body: data };
      await writer.addBuffer(e.path, data, { prepared: Promise.resolve(prepared), align });
      onBytes?.(entry.compressedSize);
      return;
    }
    default:
      break;
  }
  // A large stored entry: deflated as it is copied, written again stored when that did not pay.
  await writer.addDeflated(e.path, reader, entry, level, (c, u) => rules.worthCompressing(e.modulePath, c, u), { signal, align, onBytes });
}
