/**
 * Hostile APKs that multiply memory or disk past every limit (security review): each was only
 * stopped by the worker's 1 GiB heap cap (WORKER_OUT_OF_MEMORY) or by a full data disk. Every
 * crafted input is built here, small, and must now end in a coded error (or convert cheaply):
 *
 * 1. binary XML attributes of attributeSize 0: 65,535 attributes from one 20-byte record;
 * 2. resources.arsc slots sharing one map entry: its items handed out once per slot;
 * 3. style spans cached per style index: a million styles at one offset, or overlapping styles;
 * 4. references to empty or missing strings, free against the pool's served budget;
 * 5. a container of deflated zips of zeros, every one inflated to the work folder;
 * 6. an entry name that no longer fits a zip name once under `base/` (a RangeError, INTERNAL).
 */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { ConverterError, convertApk, type ConversionStage } from '../src/index.js';
import { parseBinaryXml } from '../src/axml/parser.js';
import { parseResourceTable } from '../src/arsc/table.js';
import { ByteReader } from '../src/arsc/bytes.js';
import { readChunkHeader } from '../src/arsc/chunk.js';
import { STRING_POOL_SERVED_BASE, STRING_POOL_SERVED_FACTOR, parseStringPool, type StringPool } from '../src/arsc/stringPool.js';
import { openInputs } from '../src/input/open.js';
import { xmlToProtoNode } from '../src/resources/index.js';
import {
  MAX_SCRATCH_RATIO,
  MAX_SET_ENTRIES,
  MAX_SET_INFLATED_BYTES,
  MAX_SET_SCRATCH_BYTES,
  SCRATCH_RATIO_THRESHOLD_BYTES,
  ZipWriter,
  checkEntryNameLength,
} from '../src/zip/index.js';
import { crc32 } from '../src/zip/crc32.js';
import {
  NONE,
  Out,
  chunk,
  concat,
  craftedStylePool,
  oneStyleOfSpans,
  packageChunk,
  stringPool,
  tableChunk,
  typeChunkSharingOneEntry,
  typeSpecChunk,
  xmlEndEl,
  xmlStartEl,
  xmlWithPool,
} from './helpers/chunks.js';
import { TempDir, buildZip, tinyApkEntries, type BuildEntry } from './helpers/zipBuilder.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof ConverterError ? e.code : `not coded: ${String(e)}`;
  }
  return undefined;
}

async function rejection(p: Promise<unknown>): Promise<ConverterError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected a refusal').to.be.instanceOf(ConverterError);
  return e as ConverterError;
}

function poolOf(bytes: Uint8Array): StringPool {
  const r = new ByteReader(bytes, 'BAD_RESOURCE_TABLE');
  return parseStringPool(r, readChunkHeader(r, 0, bytes.length, 'pool'));
}

// ---- 1. binary XML attributes ------------------------------------------------------------------

/** A START_ELEMENT node with one 20-byte attribute record and the given attributeSize/Count (56 bytes). */
function startElementRaw(attributeSize: number, attributeCount: number, extraBytes = 0, attributeName = 0): Uint8Array {
  const ext = new Out().u32(NONE).u32(0).u16(20).u16(attributeSize).u16(attributeCount).u16(0).u16(0).u16(0);
  ext.u32(NONE).u32(attributeName).u32(NONE).u16(8).u8(0).u8(0x10).u32(1); // one ResXMLTree_attribute
  for (let i = 0; i < extraBytes; i++) ext.u8(0);
  return chunk(0x0102, new Out().u32(1).u32(NONE).finish(), ext.finish());
}

function xmlOf(...nodes: Uint8Array[]): Uint8Array {
  return chunk(0x0003, new Uint8Array(0), concat(stringPool(['a']), ...nodes));
}

describe('amplification 1: binary XML attributes take their own bytes', () => {
  it('parseBinaryXml_attributeSize0With65535Attributes_refusedBadBinaryXml', () => {
    // 56 bytes that made 65,535 attribute objects (150 such nodes made 1 GiB).
    const node = startElementRaw(0, 65535);
    expect(node.length).to.equal(56);
    const xml = xmlOf(node, xmlEndEl(1, NONE, 0));
    expect(codeOf(() => parseBinaryXml(xml))).to.equal('BAD_BINARY_XML');
    expect(codeOf(() => parseBinaryXml(xml, { errorCode: 'BAD_MANIFEST' }))).to.equal('BAD_MANIFEST');
  });

  it('parseBinaryXml_attributeSizeUnder20_refusedEvenForOneAttribute', () => {
    expect(codeOf(() => parseBinaryXml(xmlOf(startElementRaw(12, 1), xmlEndEl(1, NONE, 0))))).to.equal('BAD_BINARY_XML');
  });

  it('parseBinaryXml_attributesWhoseStrideRunsPastTheNode_refusedAsAaptDoes', () => {
    // Two attributes of 24 bytes from offset 20 need 68 bytes; 64 fit the old check (the last record's 20).
    const ext = 20 + 44;
    const node = startElementRaw(24, 2, ext - 40);
    expect(codeOf(() => parseBinaryXml(xmlOf(node, xmlEndEl(1, NONE, 0))))).to.equal('BAD_BINARY_XML');
    // The same with the padding of the last attribute present parses: aapt's rule, not stricter.
    const ok = startElementRaw(24, 2, ext - 40 + 4);
    expect(parseBinaryXml(xmlOf(ok, xmlEndEl(1, NONE, 0))).root.attributes).to.have.length(2);
  });

  it('parseBinaryXml_noAttributesWithAttributeSize0_stillParses', () => {
    // A count of 0 makes nothing: no reason to refuse what some writers leave at 0.
    expect(parseBinaryXml(xmlOf(startElementRaw(0, 0), xmlEndEl(1, NONE, 0))).root.attributes).to.have.length(0);
  });
});

// ---- 2. map entries shared by slots -------------------------------------------------------------

function tableWithSharedEntry(slots: number, items: number): Uint8Array {
  const map = { parent: 0, items: Array.from({ length: items }, (_, i): [number, number, number] => [0x01010000 + i, 0x10, i]) };
  const pkg = packageChunk({
    id: 0x7f,
    name: 'com.example.tiny',
    types: ['style'],
    keys: ['k'],
    chunks: [typeSpecChunk(1, new Array<number>(slots).fill(0)), typeChunkSharingOneEntry(1, slots, { index: 0, key: 0, map })],
  });
  return tableChunk(stringPool(['x']), [pkg]);
}

describe('amplification 2: map entries shared by entry slots', () => {
  it('parseResourceTable_4096SlotsOnOneMapOf200Items_refusedBadResourceTable', () => {
    // 36 KB handing out 819,200 items (65,536 slots on a map of a million items: 65 billion).
    const table = tableWithSharedEntry(4096, 200);
    expect(table.length).to.be.below(40_000);
    // The bound: the table's bytes / 12 (one ResTable_map each) + 64 Ki items of slack.
    expect(4096 * 200).to.be.above(table.length / 12 + 64 * 1024);
    expect(codeOf(() => parseResourceTable(table))).to.equal('BAD_RESOURCE_TABLE');
  });

  it('parseResourceTable_slotsSharingEntries_asAapt2DeduplicatesThem_stillParse', () => {
    // aapt2 shares equal simple entries between slots: any number of them.
    const pkg = packageChunk({
      id: 0x7f,
      name: 'com.example.tiny',
      types: ['bool'],
      keys: ['k'],
      chunks: [typeSpecChunk(1, new Array<number>(60_000).fill(0)), typeChunkSharingOneEntry(1, 60_000, { index: 0, key: 0, value: [0x12, 0xffffffff] })],
    });
    const simple = parseResourceTable(tableChunk(stringPool(['x']), [pkg]));
    expect(simple.packages[0].types[0].entries).to.have.length(60_000);
    // A tool sharing a few small maps stays within the slack.
    const maps = parseResourceTable(tableWithSharedEntry(1000, 5));
    const entries = maps.packages[0].types[0].entries;
    expect(entries).to.have.length(1000);
    expect(entries.every((e) => e.value.kind === 'map' && e.value.items.length === 5)).to.equal(true);
  });
});

// ---- 3. style spans ------------------------------------------------------------------------------

describe('amplification 3: style spans read once per offset, within the styles region', () => {
  it('stringPool_stylesSharingOneOffset_shareOneListOfSpans', () => {
    // Cached per index, 1M styles at one offset with 1,000 spans each made 10^9 objects from ~4 MB.
    const pool = poolOf(craftedStylePool(oneStyleOfSpans(1000), new Uint32Array(1000)));
    const first = pool.styleAt(0);
    expect(first).to.have.length(1000);
    for (let i = 1; i < 1000; i++) expect(pool.styleAt(i)).to.equal(first);
  });

  it('stringPool_overlappingStyles_stringPoolTooLarge', () => {
    // 2,000 styles starting one span apart inside one run of 2,000 spans: 2 million spans from 24 KB.
    const spans = 2000;
    const pool = poolOf(craftedStylePool(oneStyleOfSpans(spans), Uint32Array.from({ length: spans }, (_, i) => i * 12)));
    expect(
      codeOf(() => {
        for (let i = 0; i < spans; i++) pool.styleAt(i);
      }),
    ).to.equal('STRING_POOL_TOO_LARGE');
  });

  it('parseBinaryXml_20kStylesAtOneOffset_noStyleBuiltUpFrontAndSpansShared', () => {
    // The XML parser built every style when it parsed the pool (4 million spans from 80 KB
    // here; a million styles of 1,000 spans went past any heap): a value now asks for its own.
    const xml = xmlWithPool(craftedStylePool(oneStyleOfSpans(200), new Uint32Array(20_000)));
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const doc = parseBinaryXml(xml);
    expect(process.memoryUsage().heapUsed - before).to.be.below(64 * 1024 * 1024);
    expect(doc.styles.get(19_999)).to.have.length(200);
    expect(doc.styles.get(0)).to.equal(doc.styles.get(19_999));
    expect(xmlToProtoNode(doc).element?.name).to.equal('b');
  });
});

// ---- 4. references to nothing --------------------------------------------------------------------

describe('amplification 4: every string reference counts against the served budget', () => {
  it('stringPool_referencesToEmptyAndMissingStrings_stringPoolTooLargePastTheBudget', () => {
    const bytes = stringPool(['', 'x']);
    const pool = poolOf(bytes);
    const budget = STRING_POOL_SERVED_BASE + STRING_POOL_SERVED_FACTOR * bytes.length;
    let calls = 0;
    const code = codeOf(() => {
      for (; calls <= budget; calls++) {
        pool.get(0); // the empty string
        pool.get(7); // outside the pool
      }
    });
    expect(code).to.equal('STRING_POOL_TOO_LARGE');
    expect(calls * 2).to.be.at.most(budget);
  });

  it('stringPool_honestReferences_samesStringsAsBefore', () => {
    const pool = poolOf(stringPool(['', 'x']));
    expect([pool.get(0), pool.get(1), pool.get(2), pool.get(-1)]).to.deep.equal(['', 'x', '', '']);
  });
});

// ---- 5. nested containers and the disk -----------------------------------------------------------

describe('amplification 5: a container of APKs is one input, with one budget', function () {
  this.timeout(120_000);
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  it('limits_setBounds_asDocumented', () => {
    // The bounds these tests are about: 100,000 entries and 4 GiB declared across all the APKs
    // of an input; at most 2 GiB inflated to the work folder, and no more than 16:1 once past
    // 64 MiB. The corpus stays far within (its APKs: at most 880 entries, deflate at most 2.7:1).
    expect([MAX_SET_ENTRIES, MAX_SET_INFLATED_BYTES, MAX_SET_SCRATCH_BYTES, MAX_SCRATCH_RATIO, SCRATCH_RATIO_THRESHOLD_BYTES]).to.deep.equal([
      100_000,
      4 * 1024 ** 3,
      2 * 1024 ** 3,
      16,
      64 * 1024 ** 2,
    ]);
  });

  it('openInputs_500DeflatedZipsOfZeros_refusedBeforeFillingTheDisk', async () => {
    // Each inner APK: a zip of 8,000,000 stored zeros (under the 8 MiB of the per-entry ratio
    // check), deflated to ~8 KB. 500 of them (~4 MB) inflated 4 GB to the work folder. Now the
    // set is refused once 64 MiB are passed at over 16:1: the 9th APK, 72 MB.
    const inner = buildZip([{ name: 'zeros.bin', data: Buffer.alloc(8_000_000), method: 0 }]);
    const body = deflateRawSync(inner);
    const crc = crc32(inner);
    const entries: BuildEntry[] = Array.from({ length: 500 }, (_, i) => ({
      name: `x${i}.apk`,
      data: '',
      body,
      local: { crc, usize: inner.length },
      cd: { crc, usize: inner.length },
    }));
    const container = tmp.file('bomb.zip', buildZip(entries));
    const e = await rejection(openInputs([container], { workDir: tmp.path }));
    expect(e.code, e.detail).to.equal('SUSPICIOUS_COMPRESSION');
    expect(e.detail).to.contain('x8.apk');
  });

  it('openInputs_innerApksOverTheSetEntryCount_tooManyEntries', async () => {
    // Three stored APKs of 40,000 entries each: each within its own reader's 100,000.
    const innerOf = (k: number): Buffer => buildZip(Array.from({ length: 40_000 }, (_, i) => ({ name: `f${k}/${i}`, method: 0 as const })));
    const container = tmp.file('many.zip', buildZip([0, 1, 2].map((k) => ({ name: `s${k}.apk`, data: innerOf(k), method: 0 as const }))));
    const e = await rejection(openInputs([container], { workDir: tmp.path }));
    expect(e.code, e.detail).to.equal('TOO_MANY_ENTRIES');
  });

  it('openInputs_innerApksOverTheSetInflatedBytes_inflatedTooLarge', async () => {
    // Three stored APKs each declaring 200 entries of 8 MiB - 1 (exempt from the ratio check):
    // 1.6 GiB each, within one reader's 4 GiB, 4.8 GiB together.
    const empty = deflateRawSync(Buffer.alloc(0));
    const usize = 8 * 1024 * 1024 - 1;
    const innerOf = (k: number): Buffer =>
      buildZip(Array.from({ length: 200 }, (_, i) => ({ name: `a${k}/${i}`, data: '', body: empty, local: { usize }, cd: { usize } })));
    const container = tmp.file('declared.zip', buildZip([0, 1, 2].map((k) => ({ name: `s${k}.apk`, data: innerOf(k), method: 0 as const }))));
    const e = await rejection(openInputs([container], { workDir: tmp.path }));
    expect(e.code, e.detail).to.equal('INFLATED_TOO_LARGE');
  });

  it('openInputs_deflatedSplitsOfARealSize_stillOpen', async () => {
    // A deflated set of tiny APKs (ratio far over 16, but far under 64 MiB in all) opens.
    const apk = buildZip(tinyApkEntries());
    const container = tmp.file('set.xapk', buildZip([{ name: 'manifest.json', data: '{}' }, { name: 'base.apk', data: apk }, { name: 'split_config.en.apk', data: apk }]));
    const opened = await openInputs([container], { workDir: tmp.path });
    try {
      expect(opened.apks.map((a) => a.label)).to.deep.equal(['set.xapk!base.apk', 'set.xapk!split_config.en.apk']);
    } finally {
      await opened.close();
    }
  });
});

// ---- 6. entry names too long for the bundle ----------------------------------------------------

describe('amplification 6: entry names that do not fit under base/', function () {
  this.timeout(60_000);
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  it('convertApk_assetNameOf65535Bytes_refusedUnsafePathBeforeAnyWork', async () => {
    const name = `assets/${'a'.repeat(65_535 - 7)}`;
    expect(Buffer.byteLength(name)).to.equal(65_535); // fits the APK's own zip, not `base/` + it
    const apk = tmp.file('long.apk', buildZip([...tinyApkEntries(), { name, data: 'x', method: 0 }]));
    const stages = new Set<ConversionStage>();
    const e = await rejection(convertApk(apk, tmp.file('out.aab'), { onProgress: (stage) => stages.add(stage) }));
    expect(e.code, e.detail).to.equal('UNSAFE_PATH');
    expect(e.detail).to.contain('65540 bytes').and.contain('assets/aaaa');
    expect(e.detail!.length).to.be.below(300); // the name, truncated
    expect([...stages]).to.deep.equal(['reading']); // refused before the manifest, resources and writing
  });

  it('checkEntryNameLength_countsUtf8Bytes_andThePrefix', () => {
    expect(() => checkEntryNameLength('é'.repeat(32_765), 5)).not.to.throw(); // 65,530 + 5
    expect(codeOf(() => checkEntryNameLength('é'.repeat(32_766), 5))).to.equal('UNSAFE_PATH'); // 65,537
    expect(() => checkEntryNameLength('a'.repeat(65_535))).not.to.throw();
  });

  it('zipWriter_nameOver65535Bytes_codedInsteadOfRangeError', async () => {
    const w = await ZipWriter.create(tmp.file('w.zip'));
    try {
      const e = await rejection(w.addBuffer(`base/${'b'.repeat(65_531)}`, Buffer.from('x')));
      expect(e.code).to.equal('UNSAFE_PATH');
    } finally {
      await w.destroy();
    }
  });
});

// The crafted APK of item 1 through the whole engine (~8 KB of nodes for ~10 million attributes):
// a coded failure, not a worker out of memory.
describe('amplification 1, end to end', function () {
  this.timeout(60_000);
  it('convertApk_layoutOf150NodesOf65535Attributes_badBinaryXml', async () => {
    const tmp = new TempDir();
    try {
      const nodes: Uint8Array[] = [];
      // Attributes named by an empty string: no characters served, so no string-pool budget stopped them.
      for (let i = 0; i < 150; i++) nodes.push(startElementRaw(0, 65535, 0, 1), xmlEndEl(1, NONE, 0));
      const layout = chunk(0x0003, new Uint8Array(0), concat(stringPool(['LinearLayout', '']), xmlStartEl(1, NONE, 0), ...nodes, xmlEndEl(1, NONE, 0)));
      const apk = tmp.file('attrs.apk');
      writeFileSync(apk, buildZip([...tinyApkEntries().filter((e) => e.name !== 'res/layout/main.xml'), { name: 'res/layout/main.xml', data: layout }]));
      const e = await rejection(convertApk(apk, tmp.file('out.aab')));
      expect(e.code, e.detail).to.equal('BAD_BINARY_XML');
    } finally {
      tmp.cleanup();
    }
  });
});
