/**
 * What the user handed in, recognised by content rather than by name: one APK, a split set
 * (bundletool's .apks with toc.pb, an .xapk with manifest.json, an APKMirror .apkm with
 * info.json, or any zip of APKs), several APK files, and OBB expansion files. Each APK comes back
 * as a ZipReader: an APK stored uncompressed inside a container is read in place (a slice of the
 * container file), a deflated one is inflated once to a work folder; nothing is held in memory.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ConverterError, isConverterError } from '../errors.js';
import {
  MAX_SCRATCH_RATIO,
  MAX_SET_ENTRIES,
  MAX_SET_INFLATED_BYTES,
  MAX_SET_SCRATCH_BYTES,
  METHOD_STORED,
  SCRATCH_RATIO_THRESHOLD_BYTES,
  ZipReader,
  type ZipEntry,
} from '../zip/index.js';

export type ContainerKind = 'apk' | 'apks' | 'xapk' | 'apkm' | 'zip' | 'files';

/** One APK of the input, open. `label` says where it came from (`app.apks!splits/base-master.apk`). */
export interface ApkPart {
  label: string;
  reader: ZipReader;
}

/** An OBB expansion file: a file of its own, or an entry of an .xapk (Android/obb/...). */
export interface ObbInput {
  /** File name, e.g. `main.42.com.example.game.obb`. */
  name: string;
  label: string;
  size: number;
  source: { path: string } | { reader: ZipReader; entry: ZipEntry };
}

export interface OpenedInputs {
  container: ContainerKind;
  apks: ApkPart[];
  obbs: ObbInput[];
  /** APKs of a container left out on purpose (bundletool's standalone and universal APKs beside the splits). */
  ignored: string[];
  /** Sum of the input files' sizes. */
  sizeBytes: number;
  close(): Promise<void>;
}

/** An input file: its path, or its path and the name the user knows it by (an upload stored under another name). */
export type InputFile = string | { path: string; name: string };

function pathOf(f: InputFile): string {
  return typeof f === 'string' ? f : f.path;
}

function nameOf(f: InputFile): string {
  return typeof f === 'string' ? basename(f) : f.name;
}

export interface OpenInputsOptions {
  /** Files to take as OBBs whatever their name. */
  obb?: readonly InputFile[];
  /** Where deflated APKs of a container are inflated (a temporary folder by default). */
  workDir?: string;
  signal?: AbortSignal;
  /** The whole input's limits (DEFAULT_SET_LIMITS). */
  setLimits?: Partial<SetLimits>;
}

/** More APKs than any real split set has (bundletool makes a few dozen at most). */
export const MAX_SPLIT_APKS = 500;

const APK_ENTRY = /\.apk$/i;
const OBB_NAME = /\.obb$/i;

/**
 * An APKMirror .apkm encrypted with libsodium: not a zip, a 66-byte header (version, password-hash
 * algorithm 1 or 2, ops limit, memory limit, chunk size, salt, stream header), then ciphertext.
 */
function looksLikeEncryptedApkm(head: Buffer, size: number): boolean {
  if (head.length < 34 || size <= 66) return false;
  const alg = head[1];
  const mem = head.readBigUInt64LE(10);
  const chunk = head.readBigUInt64LE(18);
  return (alg === 1 || alg === 2) && mem > 0n && mem <= 1n << 32n && chunk > 0n && chunk <= 1n << 30n;
}

async function readHead(path: string, length: number): Promise<Buffer> {
  const h = await open(path, 'r').catch((e: unknown) => {
    throw new ConverterError('IO_ERROR', `abrir ${path}: ${(e as Error).message}`, { cause: e });
  });
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await h.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

/** Which APK entries of a container make up the app (bundletool's layout: splits, not standalones). */
function chooseApkEntries(kind: ContainerKind, entries: ZipEntry[]): { chosen: ZipEntry[]; ignored: ZipEntry[] } {
  const apks = entries.filter((e) => !e.isDirectory && APK_ENTRY.test(e.name));
  if (kind !== 'apks') return { chosen: apks, ignored: [] };
  const splits = apks.filter((e) => e.name.startsWith('splits/') || e.name.startsWith('asset-slices/'));
  if (splits.length > 0) return { chosen: splits, ignored: apks.filter((e) => !splits.includes(e)) };
  const universal = apks.filter((e) => e.name === 'universal.apk');
  if (universal.length > 0) return { chosen: universal, ignored: apks.filter((e) => !universal.includes(e)) };
  return { chosen: apks, ignored: [] };
}

/** What an APK holds besides its manifest: a zip with these and no manifest is a broken APK (MISSING_MANIFEST). */
const APK_CONTENT = /^(classes\d*\.dex|resources\.arsc|res\/|lib\/|assets\/|META-INF\/)/;

function containerKind(reader: ZipReader): ContainerKind | undefined {
  if (reader.get('AndroidManifest.xml')) return 'apk';
  if (!reader.entries.some((e) => !e.isDirectory && APK_ENTRY.test(e.name))) {
    return reader.entries.some((e) => APK_CONTENT.test(e.name)) ? 'apk' : undefined;
  }
  if (reader.get('toc.pb')) return 'apks';
  if (reader.get('manifest.json')) return 'xapk';
  if (reader.get('info.json')) return 'apkm';
  return 'zip';
}

/** Limits of one input as a whole (zip/limits.ts); tests pass smaller ones. */
export interface SetLimits {
  maxEntries: number;
  maxInflatedBytes: number;
  maxScratchBytes: number;
  maxScratchRatio: number;
  scratchRatioThresholdBytes: number;
}

export const DEFAULT_SET_LIMITS: Readonly<SetLimits> = Object.freeze({
  maxEntries: MAX_SET_ENTRIES,
  maxInflatedBytes: MAX_SET_INFLATED_BYTES,
  maxScratchBytes: MAX_SET_SCRATCH_BYTES,
  maxScratchRatio: MAX_SCRATCH_RATIO,
  scratchRatioThresholdBytes: SCRATCH_RATIO_THRESHOLD_BYTES,
});

/**
 * What the APKs of one input cost together: entries and inflated bytes they declare, bytes
 * inflated to the work folder and the compressed bytes they came from. Each APK's own reader
 * checks its limits; these are the whole set's.
 */
class SetBudget {
  private entries = 0;
  private inflated = 0;
  private scratch = 0;
  private scratchCompressed = 0;
  constructor(private readonly limits: SetLimits) {}

  /** Before a deflated APK of a container is inflated to disk: its declared sizes, with those before it. */
  toDisk(label: string, e: ZipEntry): void {
    const scratch = this.scratch + e.uncompressedSize;
    const compressed = this.scratchCompressed + e.compressedSize;
    const l = this.limits;
    if (scratch > l.maxScratchBytes) {
      throw new ConverterError('INFLATED_TOO_LARGE', `${label}: os APKs do conjunto descompactam mais de ${l.maxScratchBytes} bytes em disco (${scratch})`);
    }
    if (scratch > l.scratchRatioThresholdBytes && scratch / Math.max(1, compressed) > l.maxScratchRatio) {
      throw new ConverterError('SUSPICIOUS_COMPRESSION', `${label}: os APKs do conjunto descompactam ${compressed} → ${scratch} bytes em disco (máximo ${l.maxScratchRatio}:1)`);
    }
    this.scratch = scratch;
    this.scratchCompressed = compressed;
  }

  /** An APK of the input, opened: its entries and declared inflated bytes, with those before it. */
  add(label: string, reader: ZipReader): void {
    this.entries += reader.entries.length;
    for (const e of reader.entries) this.inflated += e.uncompressedSize;
    if (this.entries > this.limits.maxEntries) {
      throw new ConverterError('TOO_MANY_ENTRIES', `${label}: os APKs do conjunto têm mais de ${this.limits.maxEntries} entradas (${this.entries})`);
    }
    if (this.inflated > this.limits.maxInflatedBytes) {
      throw new ConverterError('INFLATED_TOO_LARGE', `${label}: os APKs do conjunto declaram mais de ${this.limits.maxInflatedBytes} bytes descompactados (${this.inflated})`);
    }
  }
}

/** Opens every input; on any failure everything opened so far is closed and the work folder removed. */
export async function openInputs(files: readonly InputFile[], options: OpenInputsOptions = {}): Promise<OpenedInputs> {
  const readers: ZipReader[] = [];
  const apks: ApkPart[] = [];
  const obbs: ObbInput[] = [];
  const ignored: string[] = [];
  const kinds: ContainerKind[] = [];
  let workDir: string | undefined;
  let sizeBytes = 0;
  const budget = new SetBudget({ ...DEFAULT_SET_LIMITS, ...options.setLimits });
  const close = async (): Promise<void> => {
    await Promise.allSettled(readers.map((r) => r.close()));
    if (workDir) await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
  };
  const scratch = async (): Promise<string> => (workDir ??= await mkdtemp(join(options.workDir ?? tmpdir(), 'aabify-splits-')));
  try {
    const obbFiles = new Set(options.obb ?? []);
    for (const file of [...files, ...obbFiles]) {
      const path = pathOf(file);
      const name = nameOf(file);
      const size = (await stat(path).catch((e: unknown) => {
        throw new ConverterError('IO_ERROR', `abrir ${path}: ${(e as Error).message}`, { cause: e });
      })).size;
      sizeBytes += size;
      if (obbFiles.has(file) || OBB_NAME.test(name)) {
        obbs.push({ name, label: name, size, source: { path } });
        continue;
      }
      let outer: ZipReader;
      try {
        outer = await ZipReader.open(path);
      } catch (e) {
        if (isConverterError(e) && e.code === 'NOT_A_ZIP' && looksLikeEncryptedApkm(await readHead(path, 66), size)) {
          throw new ConverterError('ENCRYPTED_APKM', name);
        }
        throw e;
      }
      readers.push(outer);
      const kind = containerKind(outer);
      if (!kind) throw new ConverterError('NOT_AN_APK_CONTAINER', name);
      kinds.push(kind);
      if (kind === 'apk') {
        budget.add(name, outer);
        apks.push({ label: name, reader: outer });
        continue;
      }
      const { chosen, ignored: left } = chooseApkEntries(kind, [...outer.entries]);
      ignored.push(...left.map((e) => `${name}!${e.name}`));
      if (apks.length + chosen.length > MAX_SPLIT_APKS) throw new ConverterError('TOO_MANY_SPLITS', `${apks.length + chosen.length} APKs`);
      for (const e of chosen) {
        if (options.signal?.aborted) throw new ConverterError('ABORTED');
        const label = `${name}!${e.name}`;
        let reader: ZipReader;
        if (e.method === METHOD_STORED) {
          reader = await ZipReader.open(path, {}, { offset: await outer.dataOffset(e), length: e.compressedSize });
        } else {
          budget.toDisk(label, e);
          const file = join(await scratch(), `${apks.length}.apk`);
          await inflateTo(outer, e, file, options.signal);
          reader = await ZipReader.open(file);
        }
        readers.push(reader);
        budget.add(label, reader);
        apks.push({ label, reader });
      }
      for (const e of outer.entries) {
        if (!e.isDirectory && OBB_NAME.test(e.name)) {
          obbs.push({ name: basename(e.name), label: `${name}!${e.name}`, size: e.uncompressedSize, source: { reader: outer, entry: e } });
        }
      }
    }
    if (apks.length === 0) throw new ConverterError('MISSING_BASE_SPLIT', obbs.length > 0 ? 'só arquivos OBB foram enviados' : 'nenhum APK');
    const container: ContainerKind = kinds.length === 1 ? kinds[0] : 'files';
    return { container, apks, obbs, ignored, sizeBytes, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Streams a deflated entry to a file, inflated and CRC-checked on the way. */
async function inflateTo(reader: ZipReader, entry: ZipEntry, file: string, signal?: AbortSignal): Promise<void> {
  const out = createWriteStream(file, { flags: 'wx' });
  await once(out, 'open');
  try {
    for await (const chunk of reader.chunks(entry, { signal })) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
  } catch (e) {
    out.destroy();
    throw e;
  }
}
