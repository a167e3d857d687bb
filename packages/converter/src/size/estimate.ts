/**
 * Estimates what Google Play delivers to a device from the bundle — the base master APK plus
 * the ABI, density and language splits that match it — against the APK as it is distributed
 * today, both as compressed (gzip) download bytes, as `bundletool get-size total` measures them.
 *
 * Nothing is built: each split's content is known from the APK's entries and resource table,
 * entries count with their deflated size, and each split's resources.arsc is estimated from the
 * values it receives, calibrated against the real table's deflated size.
 */
import { createDeflateRaw } from 'node:zlib';
import { parseResourceTable } from '../arsc/table.js';
import type { ResourceTable } from '../arsc/model.js';
import { isConverterError } from '../errors.js';
import type { RoutedEntries } from '../bundle/collect.js';
import type { SplitOptions } from '../bundle/bundleConfig.js';
import { METHOD_STORED, type ZipEntry, type ZipReader } from '../zip/index.js';
import { DEVICE_PROFILES, densityBucket, languageOf, type DeviceProfile } from './devices.js';
import { MASTER, allValues, modelTableBytes, splitTable } from './tableSplit.js';

export interface DeviceDownloadSize {
  device: DeviceProfile;
  /** False when the app has native code for none of the device's ABIs (Play would not offer it). */
  compatible: boolean;
  /** Bytes Play would deliver from the bundle (gzip estimate, all matching splits). */
  bundleBytes: number;
  /** Bytes of the APK as distributed today (same estimate). */
  apkBytes: number;
  /** apkBytes - bundleBytes, and as a percentage of apkBytes (one decimal). */
  savedBytes: number;
  savedPercent: number;
  /** Split names (`base-master`, `base-arm64_v8a`, `base-xxhdpi`, `base-pt`) and their estimates. */
  splits: { name: string; bytes: number }[];
}

export interface EstimateOptions {
  splits?: SplitOptions;
  devices?: readonly DeviceProfile[];
  signal?: AbortSignal;
}

/**
 * Deflated entries smaller than this count with their compressed size as the APK has it; larger
 * ones (dex above all) are deflated again, since old packagers used weak levels and Play's
 * download compression does not.
 */
const REDEFLATE_FROM = 16 * 1024;

/**
 * Node's bundled zlib (Chromium's fork) deflates binary data a few percent worse than the stock
 * zlib behind Java's GZIPOutputStream, which measures Play's download sizes. Measured ratios
 * (stock / node, level 6) on the corpus: dex ~0.96, native libraries ~0.965, resources.arsc
 * ~0.93, PNG ~0.96, text ~1.
 */
function nodeZlibCorrection(name: string): number {
  if (/\.dex$/.test(name)) return 0.96;
  if (/\.so$/.test(name)) return 0.965;
  if (name.endsWith('.arsc')) return 0.93;
  if (/\.png$/.test(name)) return 0.96;
  return 0.98;
}
/** Bytes a zip entry adds beyond its data once gzip-compressed (local + central headers). */
const ENTRY_OVERHEAD = 48;
/** A config split's manifest (`<manifest split="config.xx">`), deflated, and the APK's fixed tail. */
const SPLIT_MANIFEST = 360;
const APK_FIXED = 60;
/** What bundletool adds to the base master: split attributes in the manifest, split metadata. */
const MASTER_EXTRA = 200;

/**
 * Large entries are deflated in a few contiguous windows spread over the entry (so each keeps
 * its LZ77 context) and scaled to the whole: at most 4 MB of deflate per entry.
 */
const SAMPLE_WINDOW = 256 * 1024;
const SAMPLE_WINDOWS = 16;

async function deflatedLength(reader: ZipReader, e: ZipEntry, signal?: AbortSignal): Promise<number> {
  if (e.method !== METHOD_STORED && e.uncompressedSize < REDEFLATE_FROM) return e.compressedSize;
  if (e.uncompressedSize === 0) return 0;
  const size = e.uncompressedSize;
  const windows: [number, number][] = [];
  if (size <= SAMPLE_WINDOW * SAMPLE_WINDOWS) windows.push([0, size]);
  else {
    const stride = Math.floor((size - SAMPLE_WINDOW) / (SAMPLE_WINDOWS - 1));
    for (let i = 0; i < SAMPLE_WINDOWS; i++) windows.push([i * stride, i * stride + SAMPLE_WINDOW]);
  }
  let out = 0;
  let sampled = 0;
  for (const [start, end] of windows) {
    const deflate = createDeflateRaw({ level: 6 });
    deflate.on('data', (c: Buffer) => {
      out += c.length;
    });
    const done = new Promise<void>((resolve, reject) => {
      deflate.on('end', resolve);
      deflate.on('error', reject);
    });
    let pos = 0;
    for await (const chunk of reader.chunks(e, { signal })) {
      const from = Math.max(start, pos);
      const to = Math.min(end, pos + chunk.length);
      if (to > from) {
        sampled += to - from;
        if (!deflate.write(chunk.subarray(from - pos, to - pos))) await new Promise<void>((r) => deflate.once('drain', r));
      }
      pos += chunk.length;
      if (pos >= end) break;
    }
    deflate.end();
    await done;
  }
  const estimate = sampled > 0 ? (out / sampled) * size : 0;
  return Math.min(Math.round(estimate * nodeZlibCorrection(e.name)), size, e.method === METHOD_STORED ? Infinity : e.compressedSize);
}

interface Part {
  /** Name inside the APK, for the header estimate. */
  name: string;
  bytes: number;
}

function apkBytes(parts: readonly Part[]): number {
  let total = APK_FIXED;
  for (const p of parts) total += p.bytes + ENTRY_OVERHEAD + Math.ceil(p.name.length * 0.6);
  return Math.round(total);
}

/**
 * Estimates, for each device profile, the download from the bundle and from the APK. Returns []
 * when the APK cannot be estimated (the conversion itself decides whether the APK is valid).
 */
export async function estimateDownloadSizes(reader: ZipReader, routed: RoutedEntries, o: EstimateOptions = {}): Promise<DeviceDownloadSize[]> {
  try {
    return await estimate(reader, routed, o);
  } catch (e) {
    if (isConverterError(e) && e.code === 'ABORTED') throw e;
    return [];
  }
}

async function estimate(reader: ZipReader, routed: RoutedEntries, o: EstimateOptions): Promise<DeviceDownloadSize[]> {
  const dims = { abi: o.splits?.abi !== false, density: o.splits?.density !== false, language: o.splits?.language !== false };
  const size = new Map<ZipEntry, number>();
  const sizeOf = async (e: ZipEntry): Promise<number> => {
    let n = size.get(e);
    if (n === undefined) {
      n = await deflatedLength(reader, e, o.signal);
      size.set(e, n);
    }
    return n;
  };
  // APK paths (what the split APKs hold), by module folder.
  const master: Part[] = [];
  const libs = new Map<string, Part[]>();
  if (routed.manifest) master.push({ name: 'AndroidManifest.xml', bytes: await sizeOf(routed.manifest) });
  for (const e of routed.dex.values()) master.push({ name: e.name, bytes: await sizeOf(e) });
  for (const [path, e] of routed.copies) {
    const part = { name: path.replace(/^root\//, ''), bytes: await sizeOf(e) };
    const abi = /^lib\/([^/]+)\//.exec(path)?.[1];
    if (abi && dims.abi) libs.set(abi, [...(libs.get(abi) ?? []), part]);
    else master.push(part);
  }

  let table: ResourceTable | undefined;
  let tableDeflated = 0;
  if (routed.resourceTable) {
    const raw = await reader.read(routed.resourceTable, { signal: o.signal });
    table = parseResourceTable(raw);
    tableDeflated = Math.round((await deflateBuffer(raw)) * nodeZlibCorrection('resources.arsc'));
  }
  const splitParts = new Map<string, Part[]>();
  if (table) {
    const calibration = tableDeflated / Math.max(1, modelTableBytes(table, allValues(table), true));
    const split = splitTable(table, dims);
    for (const [name, values] of split.values) {
      const parts = splitParts.get(name) ?? [];
      parts.push({ name: 'resources.arsc', bytes: modelTableBytes(table, values) * calibration });
      splitParts.set(name, parts);
    }
    for (const [path, splits] of split.files) {
      const e = routed.res.get(path);
      if (!e) continue;
      const bytes = await sizeOf(e);
      for (const s of splits) splitParts.get(s)?.push({ name: path, bytes });
    }
    master.push(...(splitParts.get(MASTER) ?? []));
    splitParts.delete(MASTER);
  }

  const universalParts: Part[] = [];
  for (const e of reader.entries) if (!e.isDirectory && e !== routed.resourceTable) universalParts.push({ name: e.name, bytes: await sizeOf(e) });
  if (routed.resourceTable) universalParts.push({ name: 'resources.arsc', bytes: tableDeflated });
  const universal = apkBytes(universalParts);
  const masterBytes = apkBytes(master) + MASTER_EXTRA;

  return (o.devices ?? DEVICE_PROFILES).map((device) => {
    const splits = [{ name: 'base-master', bytes: masterBytes }];
    let compatible = true;
    if (libs.size > 0) {
      const abi = device.abis.find((a) => libs.has(a));
      if (abi) splits.push({ name: `base-${abi.replace(/-/g, '_')}`, bytes: apkBytes([...libs.get(abi)!, { name: 'AndroidManifest.xml', bytes: SPLIT_MANIFEST }]) });
      else compatible = false;
    }
    const bucket = densityBucket(device.density).name;
    const lang = languageOf(device.locale);
    for (const s of [bucket, lang]) {
      const parts = splitParts.get(s);
      if (parts) splits.push({ name: `base-${s}`, bytes: apkBytes([...parts, { name: 'AndroidManifest.xml', bytes: SPLIT_MANIFEST }]) });
    }
    const bundleBytes = splits.reduce((n, s) => n + s.bytes, 0);
    const savedBytes = universal - bundleBytes;
    return {
      device,
      compatible,
      bundleBytes,
      apkBytes: universal,
      savedBytes,
      savedPercent: universal > 0 ? Math.round((savedBytes / universal) * 1000) / 10 : 0,
      splits,
    };
  });
}

function deflateBuffer(b: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const d = createDeflateRaw({ level: 6 });
    let n = 0;
    d.on('data', (c: Buffer) => {
      n += c.length;
    });
    d.on('end', () => resolve(n));
    d.on('error', reject);
    d.end(b);
  });
}
