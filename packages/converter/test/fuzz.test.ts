/**
 * Hostile-input fuzzing: mutated corpus APKs (zip level) and APKs rebuilt around mutated
 * chunks (resources.arsc, binary XML), plus hand-made hostile cases (cyclic style parents,
 * giant declared sizes and counts, deep nesting). Every input must either convert or fail
 * with a coded ConverterError — never an INTERNAL error, an uncaught exception, a hang or a
 * runaway heap. Deterministic (AABIFY_FUZZ_SEED), bounded by count and time
 * (AABIFY_FUZZ_COUNT, AABIFY_FUZZ_SECONDS), and it prints its counts as one line.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { KEYSTORE_ERROR_MESSAGES } from '@aabify/shared';
import { CONVERTER_ERRORS, ConverterError, convertApk, generateUploadKeystore, inspectApk, openKeystore, type ConverterErrorCode } from '../src/index.js';
import { children, derSeq, parseDer } from '../src/sign/der.js';
import { MAX_XML_BYTES, parseBinaryXml } from '../src/axml/parser.js';
import { MAX_TABLE_BYTES, parseResourceTable } from '../src/arsc/table.js';
import { TestApk } from './helpers/apk.js';
import {
  NONE,
  packageChunk,
  poolOfOneLongString,
  poolOfOverlappingStrings,
  stringPool,
  tableChunk,
  tableReferencingOneLongString,
  typeChunk,
  typeSpecChunk,
  xmlDoc,
  xmlEndEl,
  xmlStartEl,
  xmlWithPool,
} from './helpers/chunks.js';
import { listCorpus } from './helpers/corpus.js';
import { TempDir, buildZip, tinyApkEntries, tinyManifest, type BuildEntry } from './helpers/zipBuilder.js';

const SEED = Number(process.env.AABIFY_FUZZ_SEED ?? 0xaab1f7);
const MAX_INPUTS = Number(process.env.AABIFY_FUZZ_COUNT ?? 400);
const MAX_SECONDS = Number(process.env.AABIFY_FUZZ_SECONDS ?? 150);
/** One input taking longer than this is a hang. */
const HANG_MS = 30_000;
/** Heap growth beyond this over the run is a leak or an unbounded allocation. */
const MAX_HEAP_GROWTH = 768 * 1024 * 1024;
/** Corpus APKs small enough to mutate many times within the time budget. */
const MAX_SEED_APK_BYTES = 700_000;

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INTERESTING_U32 = [0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];

interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
}

function rngOf(seed: number): Rng {
  const r = prng(seed);
  return { next: r, int: (n) => Math.floor(r() * n), pick: (xs) => xs[Math.floor(r() * xs.length)] };
}

/** One mutation of a byte buffer: flips, interesting values, truncation, duplicated ranges. */
function mutateBytes(src: Uint8Array, rng: Rng, hotspots: readonly number[] = []): { bytes: Buffer; how: string } {
  const b = Buffer.from(src);
  const at = (): number => (hotspots.length > 0 && rng.next() < 0.6 ? Math.min(b.length - 1, rng.pick(hotspots) + rng.int(64)) : rng.int(b.length));
  switch (rng.int(6)) {
    case 0: {
      const n = 1 + rng.int(8);
      for (let i = 0; i < n; i++) b[at()] ^= 1 << rng.int(8);
      return { bytes: b, how: `flip x${n}` };
    }
    case 1: {
      const p = Math.min(at() & ~3, b.length - 4);
      const v = rng.pick(INTERESTING_U32);
      if (p >= 0) b.writeUInt32LE(v >>> 0, p);
      return { bytes: b, how: `u32@${p}=${v}` };
    }
    case 2: {
      const p = Math.min(at() & ~1, b.length - 2);
      const v = rng.pick([0, 1, 0x7fff, 0x8000, 0xffff]);
      if (p >= 0) b.writeUInt16LE(v, p);
      return { bytes: b, how: `u16@${p}=${v}` };
    }
    case 3: {
      const len = rng.int(b.length);
      return { bytes: b.subarray(0, len), how: `truncate ${len}` };
    }
    case 4: {
      const p = at();
      const len = 1 + rng.int(64);
      for (let i = 0; i < len && p + i < b.length; i++) b[p + i] = rng.int(256);
      return { bytes: b, how: `random ${len}@${p}` };
    }
    default: {
      // Copy a range over another: repeated chunk headers, overlapping structures.
      const from = at();
      const to = at();
      const len = 1 + rng.int(128);
      b.copy(b, to, from, Math.min(b.length, from + len));
      return { bytes: b, how: `copy ${from}->${to}` };
    }
  }
}

/** Offsets of the zip structures (local headers, central directory, end record) of an APK. */
function zipHotspots(apk: Buffer): number[] {
  const spots: number[] = [];
  for (let i = 0; i + 4 <= apk.length; i++) {
    const sig = apk.readUInt32LE(i);
    if (sig === 0x04034b50 || sig === 0x02014b50 || sig === 0x06054b50 || sig === 0x06064b50) spots.push(i);
  }
  return spots;
}

interface SeedApk {
  name: string;
  bytes: Buffer;
  entries: BuildEntry[];
}

function entriesOf(bytes: Buffer): BuildEntry[] {
  const apk = new TestApk(bytes);
  return apk.names().map((name) => ({ name, data: apk.read(name) ?? new Uint8Array(), method: apk.entries.get(name)!.method === 0 ? 0 : 8 }));
}

function seedApks(): SeedApk[] {
  const tiny = buildZip(tinyApkEntries());
  const seeds: SeedApk[] = [{ name: 'tiny', bytes: tiny, entries: tinyApkEntries() }];
  for (const c of listCorpus() ?? []) {
    if (c.bytes > MAX_SEED_APK_BYTES) continue;
    const bytes = readFileSync(c.path);
    seeds.push({ name: c.name, bytes, entries: entriesOf(bytes) });
  }
  return seeds;
}

/** Hand-made hostile APKs: each aims at one limit or loop. */
function handMade(): { name: string; bytes: Buffer }[] {
  const base = tinyApkEntries();
  const withEntry = (name: string, data: Uint8Array, method: 0 | 8 = 8): Buffer =>
    buildZip([...base.filter((e) => e.name !== name), { name, data, method }]);
  // A style whose parent is itself and whose item references itself (cyclic references).
  const cyclicTable = (() => {
    const pkg = packageChunk({
      id: 0x7f,
      name: 'com.example.tiny',
      types: ['layout', 'style'],
      keys: ['main', 'Loop'],
      chunks: [
        typeSpecChunk(1, [0]),
        typeChunk({ id: 1, entryCount: 1, entries: [{ index: 0, key: 0, value: [3, 0] }] }),
        typeSpecChunk(2, [0]),
        typeChunk({ id: 2, entryCount: 1, entries: [{ index: 0, key: 1, map: { parent: 0x7f020000, items: [[0x01010000, 0x01, 0x7f020000]] } }] }),
      ],
    });
    return tableChunk(stringPool(['res/layout/main.xml'], { utf8: true }), [pkg]);
  })();
  const deepXml = (depth: number): Uint8Array => {
    const nodes: Uint8Array[] = [];
    for (let i = 0; i < depth; i++) nodes.push(xmlStartEl(1, NONE, 0));
    for (let i = 0; i < depth; i++) nodes.push(xmlEndEl(1, NONE, 0));
    return xmlDoc(['LinearLayout'], [], nodes);
  };
  const hugePool = (() => {
    const pool = Buffer.from(stringPool(['a', 'b'], { utf8: true }));
    pool.writeUInt32LE(0x7fffffff, 8); // stringCount
    return pool;
  })();
  const hugeTable = tableChunk(hugePool, []);
  const manifest = tinyManifest({ versionCode: 1 });
  const manifestHugeCount = Buffer.from(manifest);
  manifestHugeCount.writeUInt32LE(0x40000000, 8 + 8); // string pool count of the XML
  const lyingSize = buildZip([...base.filter((e) => e.name !== 'classes.dex'), { name: 'classes.dex', data: Buffer.alloc(1 << 20), cd: { usize: 0x7fffffff } }]);
  const bombish = buildZip([...base, { name: 'assets/zeros.bin', data: Buffer.alloc(20 << 20) }]);
  return [
    { name: 'cyclic-style-parent', bytes: withEntry('resources.arsc', cyclicTable, 0) },
    { name: 'xml-depth-20000', bytes: withEntry('res/layout/main.xml', deepXml(20_000)) },
    { name: 'manifest-depth-5000', bytes: withEntry('AndroidManifest.xml', deepXml(5000)) },
    { name: 'string-pool-count-2^31', bytes: withEntry('resources.arsc', hugeTable, 0) },
    { name: 'xml-pool-count-2^30', bytes: withEntry('AndroidManifest.xml', manifestHugeCount) },
    { name: 'declared-size-2GB', bytes: lyingSize },
    { name: 'deflate-ratio-bomb', bytes: bombish },
    // String pools that made the old readers decode the same bytes once per index (gigabytes).
    { name: 'xml-pool-200k-indices-one-long-string', bytes: withEntry('res/layout/main.xml', xmlWithPool(poolOfOneLongString(100_000, 200_000))) },
    { name: 'xml-pool-overlapping-strings', bytes: withEntry('res/layout/main.xml', xmlWithPool(poolOfOverlappingStrings(40_000))) },
    { name: 'manifest-pool-overlapping-strings', bytes: withEntry('AndroidManifest.xml', xmlWithPool(poolOfOverlappingStrings(40_000))) },
    { name: 'arsc-65535-values-one-long-string', bytes: withEntry('resources.arsc', tableReferencingOneLongString(65_535), 0) },
  ];
}

interface Outcome {
  kind: 'ok' | 'coded' | 'crash' | 'hang';
  code?: string;
  detail?: string;
}

async function attempt(file: string, out: string): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hang' }), HANG_MS);
  });
  const work = (async (): Promise<Outcome> => {
    try {
      await inspectApk(file, { downloadSizes: false }).catch((e: unknown) => {
        if (!(e instanceof ConverterError)) throw e;
      });
      await convertApk(file, out, { overwrite: true });
      return { kind: 'ok' };
    } catch (e) {
      if (e instanceof ConverterError && e.code in CONVERTER_ERRORS && e.code !== 'INTERNAL') return { kind: 'coded', code: e.code };
      const detail = e instanceof ConverterError ? `${e.code}: ${e.detail}` : e instanceof Error ? (e.stack ?? e.message) : String(e);
      return { kind: 'crash', detail };
    }
  })();
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('fuzz: hostile APKs never crash the engine', function () {
  this.timeout((MAX_SECONDS + 120) * 1000);

  it('convertApk_mutatedAndHostileInputs_everyFailureIsACodedError', async () => {
    const rng = rngOf(SEED);
    const tmp = new TempDir();
    const seeds = seedApks();
    const started = Date.now();
    const heapStart = process.memoryUsage().heapUsed;
    let peakHeap = heapStart;
    const counts = { inputs: 0, ok: 0, coded: 0, crashes: 0, hangs: 0 };
    const byCode = new Map<string, number>();
    const problems: string[] = [];
    const record = (name: string, o: Outcome): void => {
      counts.inputs++;
      if (o.kind === 'ok') counts.ok++;
      else if (o.kind === 'coded') {
        counts.coded++;
        byCode.set(o.code!, (byCode.get(o.code!) ?? 0) + 1);
      } else {
        counts[o.kind === 'hang' ? 'hangs' : 'crashes']++;
        problems.push(`${name}: ${o.kind}${o.detail ? ` ${o.detail.split('\n').slice(0, 4).join(' | ')}` : ''}`);
      }
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    };
    const input = tmp.file('in.apk');
    const out = tmp.file('out.aab');
    const tryBytes = async (name: string, bytes: Uint8Array): Promise<void> => {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(input, bytes);
      record(name, await attempt(input, out));
    };
    try {
      for (const h of handMade()) await tryBytes(`hand:${h.name}`, h.bytes);
      const hot = new Map(seeds.map((s) => [s.name, zipHotspots(s.bytes)]));
      const chunkTargets = (s: SeedApk): BuildEntry[] =>
        s.entries.filter((e) => e.name === 'resources.arsc' || (e.name.endsWith('.xml') && (e.name === 'AndroidManifest.xml' || e.name.startsWith('res/'))));
      while (counts.inputs < MAX_INPUTS && Date.now() - started < MAX_SECONDS * 1000) {
        const s = rng.pick(seeds);
        if (rng.next() < 0.45) {
          const m = mutateBytes(s.bytes, rng, hot.get(s.name));
          await tryBytes(`zip:${s.name}:${m.how}`, m.bytes);
        } else {
          const targets = chunkTargets(s);
          if (targets.length === 0) continue;
          const target = rng.pick(targets);
          const data = typeof target.data === 'string' ? Buffer.from(target.data) : Buffer.from(target.data ?? new Uint8Array());
          if (data.length < 8) continue;
          // Chunk headers sit at the start of the file and of every chunk: weigh the first bytes.
          const m = mutateBytes(data, rng, [0, 8, 12, 16, 20, 24, 28]);
          const rebuilt = buildZip(s.entries.map((e) => (e === target ? { ...e, data: m.bytes } : e)));
          await tryBytes(`chunk:${s.name}:${target.name}:${m.how}`, rebuilt);
        }
      }
    } finally {
      tmp.cleanup();
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const codes = [...byCode].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}=${n}`).join(' ');
    console.log(
      `      fuzz: seed=${SEED} inputs=${counts.inputs} coded-errors=${counts.coded} successes=${counts.ok} crashes=${counts.crashes} hangs=${counts.hangs} ` +
        `peak-heap-growth=${Math.round((peakHeap - heapStart) / 1048576)}MB time=${seconds}s seeds=${seeds.length} [${codes}]`,
    );
    expect(problems, problems.slice(0, 20).join('\n')).to.deep.equal([]);
    expect(peakHeap - heapStart).to.be.below(MAX_HEAP_GROWTH);
    // Every code a failure carried has its pt-BR message.
    for (const code of byCode.keys()) expect(CONVERTER_ERRORS[code as ConverterErrorCode]).to.be.a('string');
  });
});

describe('fuzz: hostile keystores (stored by users in the web service)', function () {
  this.timeout(120_000);

  it('openKeystore_mutatedPkcs12_onlyKeystoreErrorCodes', () => {
    const rng = rngOf(SEED ^ 0x5eed);
    const pass = 'senha-fuzz';
    const good = generateUploadKeystore({ password: pass }).keystore;
    // Without its MAC the store is parsed all the way down: mutations reach the bags and ciphers.
    const [version, authSafe] = children(parseDer(good));
    const noMac = derSeq(version.bytes, authSafe.bytes);
    const allowed = new Set(Object.keys(KEYSTORE_ERROR_MESSAGES));
    const counts = { inputs: 0, opened: 0, coded: 0, crashes: 0 };
    const problems: string[] = [];
    const started = Date.now();
    while (counts.inputs < Math.min(300, MAX_INPUTS) && Date.now() - started < 60_000) {
      const src = rng.next() < 0.7 ? noMac : good;
      const m = mutateBytes(src, rng, [0, 4, 8, 16, 32, 64, src.length - 80]);
      counts.inputs++;
      try {
        openKeystore(m.bytes, { storePassword: pass });
        counts.opened++;
      } catch (e) {
        if (e instanceof ConverterError && allowed.has(e.code)) counts.coded++;
        else {
          counts.crashes++;
          problems.push(`${m.how}: ${e instanceof Error ? e.stack : String(e)}`);
        }
      }
    }
    console.log(`      keystore fuzz: inputs=${counts.inputs} coded-errors=${counts.coded} opened=${counts.opened} crashes=${counts.crashes}`);
    expect(problems, problems.slice(0, 5).join('\n')).to.deep.equal([]);
  });
});

describe('limits: each has a code and a pt-BR message', () => {
  const codeOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
    } catch (e) {
      return e instanceof ConverterError ? e.code : `not coded: ${String(e)}`;
    }
    return undefined;
  };

  it('parseBinaryXml_overMaxXmlBytes_inflatedTooLarge', () => {
    const big = Buffer.alloc(MAX_XML_BYTES + 1);
    big.writeUInt32LE(0x00080003, 0);
    expect(codeOf(() => parseBinaryXml(big))).to.equal('INFLATED_TOO_LARGE');
  });

  it('parseResourceTable_overMaxTableBytes_inflatedTooLarge', () => {
    expect(codeOf(() => parseResourceTable(Buffer.alloc(MAX_TABLE_BYTES + 1)))).to.equal('INFLATED_TOO_LARGE');
  });

  it('converterErrors_limitCodes_havePtBrMessages', () => {
    for (const code of ['TOO_MANY_ENTRIES', 'INFLATED_TOO_LARGE', 'SUSPICIOUS_COMPRESSION', 'STRING_POOL_TOO_LARGE', 'NESTING_TOO_DEEP'] as const) {
      expect(CONVERTER_ERRORS[code]).to.match(/[a-zãçéí]/);
    }
  });
});
