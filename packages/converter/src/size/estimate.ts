/**
 * Estimates what Google Play delivers to a device from the bundle — the base master APK plus
 * the ABI, density and language splits that match it — against the APK as it is distributed
 * today, both as compressed (gzip) download bytes, as `bundletool get-size total` measures them.
 *
 * Nothing is built: each split's content is known from the APK's entries and resource table,
 * entries count with their deflated size, and each split's resources.arsc is estimated from the
 * values it receives, calibrated against the real table's deflated size.
 */
import { parseResourceTable } from '../arsc/table.js';
import type { ResourceTable } from '../arsc/model.js';
import { isConverterError } from '../errors.js';
import type { RoutedEntries } from '../bundle/collect.js';
import type { SplitOptions } from '../bundle/bundleConfig.js';
import { METHOD_STORED, deflatedByteCount, deflatedLengthSmall, type ZipEntry, type ZipReader } from '../zip/index.js';
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
  /**
   * The APK's resources.arsc, already read and parsed (by the conversion): spares a second parse
   * and a second copy of the table in memory. Undefined (or resolving to it): read and parsed here.
   */
  resourceTable?: Promise<ParsedTable | undefined>;
  /** Bytes deflated at most (DEFLATE_BUDGET, 24 MiB, by default): smaller in tests. */
  deflateBudget?: number;
}

export interface ParsedTable {
  table: ResourceTable;
  /** Its bytes, as in the APK (inflated). */
  bytes: Uint8Array;
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
/**
 * Deflates running at once. Each holds a zlib thread-pool thread: two keep the estimate going
 * while leaving the other threads to the conversion's reads, inflates and deflates.
 */
const DEFLATE_JOBS = 2;
/** Inputs up to this size are deflated on the main thread (see deflatedSize). */
const DEFLATE_HERE = 16 * 1024;
/** A deflated entry sampled whole (one window) and no larger than this is read whole (`reader.read`). */
const INFLATE_WHOLE = 8 * 1024 * 1024;
/** Entries measured at once (bounds the sample buffers held while an entry is inflated). */
const PARALLEL_ENTRIES = 4;

/**
 * Bytes deflated for the whole estimate, at most. Past it (very large APKs), large entries get
 * fewer windows each, so the estimate's cost stays bounded however big the APK is.
 */
const DEFLATE_BUDGET = 24 * 1024 * 1024;
/** Fewest windows an entry gets, however far over the budget (first and last part of it). */
const MIN_WINDOWS = 2;

function needsDeflate(e: ZipEntry): boolean {
  return e.uncompressedSize > 0 && (e.method === METHOD_STORED || e.uncompressedSize >= REDEFLATE_FROM);
}

export interface SamplingPlan {
  /** Whether deflated entries are deflated again (Play recompresses) or taken at their size. */
  redeflateCompressed: boolean;
  /** Windows sampled per entry larger than SAMPLE_WINDOW * windows (smaller ones are deflated whole). */
  windows: number;
}

/** Bytes of `e` the plan deflates (0 when it is taken at its compressed size). */
export function sampledBytes(e: ZipEntry, plan: SamplingPlan): number {
  if (!needsDeflate(e) || (!plan.redeflateCompressed && e.method !== METHOD_STORED)) return 0;
  return Math.min(e.uncompressedSize, SAMPLE_WINDOW * plan.windows);
}

/**
 * Keeps the deflate work within DEFLATE_BUDGET. Over it, deflated entries count at their
 * compressed size (no inflating at all), and stored ones get the most windows each that keeps
 * their total within it (an entry no larger than its windows is deflated whole, so the count
 * is per entry, not a fixed share).
 */
export function samplingPlan(entries: readonly ZipEntry[], budget = DEFLATE_BUDGET): SamplingPlan {
  const full: SamplingPlan = { redeflateCompressed: true, windows: SAMPLE_WINDOWS };
  let total = 0;
  for (const e of entries) total += sampledBytes(e, full);
  if (total <= budget) return full;
  const stored = entries.filter((e) => e.method === METHOD_STORED && needsDeflate(e));
  for (let windows = SAMPLE_WINDOWS; windows > MIN_WINDOWS; windows--) {
    const plan = { redeflateCompressed: false, windows };
    let work = 0;
    for (const e of stored) work += sampledBytes(e, plan);
    if (work <= budget) return plan;
  }
  return { redeflateCompressed: false, windows: MIN_WINDOWS };
}

/** [start, end) of each window sampled from an entry of `size` bytes. */
function sampleWindows(size: number, windowCount: number): [number, number][] {
  if (size <= SAMPLE_WINDOW * windowCount) return [[0, size]];
  const stride = Math.floor((size - SAMPLE_WINDOW) / (windowCount - 1));
  return Array.from({ length: windowCount }, (_, i): [number, number] => [i * stride, i * stride + SAMPLE_WINDOW]);
}

/**
 * Over the budget, a windowed stored entry is first probed with two small windows, a quarter and
 * three quarters in. When both are incompressible (media, archives: what large stored assets
 * mostly are), the entry is taken as incompressible from them: such bytes deflate alike at any
 * window size, so small probes suffice. Otherwise its windows are sampled as usual.
 */
const PROBE_WINDOW = 64 * 1024;
/** Deflated / raw ratio from which a probe counts as incompressible. */
const INCOMPRESSIBLE = 0.97;

function probeWindows(size: number): [number, number][] {
  return [size / 4, (3 * size) / 4].map((at): [number, number] => {
    const start = Math.floor(at - PROBE_WINDOW / 2);
    return [start, start + PROBE_WINDOW];
  });
}

/** Runs at most `n` of the given jobs at once. */
function limiter(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (running < n) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing job hands its slot over
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

type Limit = ReturnType<typeof limiter>;

async function deflatedLength(reader: ZipReader, e: ZipEntry, plan: SamplingPlan, limit: Limit, signal?: AbortSignal): Promise<number> {
  if (sampledBytes(e, plan) === 0) return e.uncompressedSize === 0 ? 0 : e.compressedSize;
  const size = e.uncompressedSize;
  const windows = sampleWindows(size, plan.windows);
  let lengths: number[];
  let sampled = 0;
  if (e.method === METHOD_STORED) {
    // Stored bytes are read where each window lies: nothing between windows is read, and no
    // window is read before a deflate is free to take it (so few buffers are held at once).
    const measure = (ws: readonly [number, number][]): Promise<number[]> =>
      Promise.all(
        ws.map(([start, end]) =>
          limit(async () => {
            const b = await reader.readStoredRange(e, start, end - start, { signal });
            sampled += b.length;
            return deflatedSize(b);
          }),
        ),
      );
    let probed: number[] | undefined;
    if (!plan.redeflateCompressed && windows.length > 1) {
      probed = await measure(probeWindows(size));
      if (probed.some((n) => n < INCOMPRESSIBLE * PROBE_WINDOW)) {
        probed = undefined;
        sampled = 0; // compressible somewhere: the probes are set aside for the windows
      }
    }
    lengths = probed ?? (await measure(windows));
  } else if (windows.length === 1 && size <= INFLATE_WHOLE) {
    const whole = await reader.read(e, { signal }); // one thread-pool job (INFLATE_IN_ONE_JOB), the CRC proven
    sampled = whole.length;
    lengths = [await limit(() => deflatedSize(whole))];
  } else {
    // One pass over the entry (inflating it once, into reused buffers), copying each window out;
    // the windows are then deflated on zlib's thread pool.
    const samples = windows.map(([start, end]) => Buffer.allocUnsafe(end - start));
    const filled = windows.map(() => 0);
    const last = windows[windows.length - 1]![1];
    let pos = 0;
    await reader.forEachChunk(
      e,
      (chunk) => {
        const chunkEnd = pos + chunk.length;
        for (let i = 0; i < windows.length; i++) {
          const [start, end] = windows[i]!;
          const from = Math.max(start, pos);
          const to = Math.min(end, chunkEnd);
          if (to > from) {
            samples[i]!.set(chunk.subarray(from - pos, to - pos), from - start);
            filled[i] = to - start;
          }
        }
        pos = chunkEnd;
        return pos < last;
      },
      { signal },
    );
    sampled = filled.reduce((a, b) => a + b, 0);
    lengths = await Promise.all(samples.map((b, i) => limit(() => deflatedSize(b.subarray(0, filled[i])))));
  }
  const out = lengths.reduce((a, b) => a + b, 0);
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

/** The parsed table and its deflated size. The conversion hands over the table it parsed anyway; alone (inspect), it is read here. */
async function measureTable(reader: ZipReader, entry: ZipEntry, o: EstimateOptions): Promise<{ table: ResourceTable; deflated: number }> {
  let parsed = await o.resourceTable;
  if (!parsed) {
    const bytes = await reader.read(entry, { signal: o.signal });
    parsed = { table: parseResourceTable(bytes), bytes };
  }
  return { table: parsed.table, deflated: Math.round((await deflatedSize(parsed.bytes)) * nodeZlibCorrection('resources.arsc')) };
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
  const plan = samplingPlan(reader.entries, o.deflateBudget);
  const limit = limiter(DEFLATE_JOBS);
  const sizeOf = async (e: ZipEntry): Promise<number> => {
    let n = size.get(e);
    if (n === undefined) {
      n = await deflatedLength(reader, e, plan, limit, o.signal);
      size.set(e, n);
    }
    return n;
  };
  // The table (handed over by the conversion once parsed; alone, read here) deflates alongside the
  // entries, and is modelled and split as soon as it is there, while the entries' deflates go on.
  const tablePart = routed.resourceTable
    ? measureTable(reader, routed.resourceTable, o).then(({ table, deflated }) => {
        const calibration = deflated / Math.max(1, modelTableBytes(table, allValues(table), true));
        const split = splitTable(table, dims);
        const valueParts = new Map<string, Part[]>();
        for (const [name, values] of split.values) valueParts.set(name, [{ name: 'resources.arsc', bytes: modelTableBytes(table, values) * calibration }]);
        return { deflated, split, valueParts };
      })
    : Promise.resolve(undefined);
  tablePart.catch(() => undefined); // awaited below; a failure there fails the estimate
  // Every entry's size is needed for the universal APK: measure them all up front, a few at a
  // time, those deflated on the thread pool first (largest first) so their jobs run meanwhile.
  const poolWork = (e: ZipEntry): number => {
    const n = sampledBytes(e, plan);
    return n > DEFLATE_HERE ? n : 0;
  };
  const measured = reader.entries.filter((e) => !e.isDirectory && e !== routed.resourceTable).sort((a, b) => poolWork(b) - poolWork(a));
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_ENTRIES }, async () => {
      while (next < measured.length) await sizeOf(measured[next++]!);
    }),
  );
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

  const measuredTable = await tablePart;
  const tableDeflated = measuredTable?.deflated ?? 0;
  const splitParts = measuredTable?.valueParts ?? new Map<string, Part[]>();
  if (measuredTable) {
    for (const [path, splits] of measuredTable.split.files) {
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

/**
 * Length of `b` deflated at level 6. A small input is deflated here, synchronously: a zlib stream
 * (its ~260 KB of state, a thread-pool round trip) costs more than the deflating, and the state
 * is freed at once instead of waiting for a GC. A larger one is deflated on the thread pool, its
 * output counted in one reused buffer and never kept (zlibSink.ts).
 */
function deflatedSize(b: Uint8Array): Promise<number> {
  return b.length <= DEFLATE_HERE ? Promise.resolve(deflatedLengthSmall(b)) : deflatedByteCount(b, 6);
}
