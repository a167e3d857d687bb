/**
 * Crafted string pools: indices that share one long string, or start inside
 * each other's bytes, made readers decode the same bytes again per index until gigabytes were
 * used. Each string now decodes once per offset, decoding is bounded by the pool's own string
 * data, and the characters a pool hands out are bounded by the file's size. Each crafted file
 * fails with STRING_POOL_TOO_LARGE (or converts) with the heap growing by little.
 */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { ConverterError, convertApk } from '../src/index.js';
import { parseBinaryXml } from '../src/axml/parser.js';
import { parseResourceTable } from '../src/arsc/table.js';
import { ByteReader } from '../src/arsc/bytes.js';
import { readChunkHeader } from '../src/arsc/chunk.js';
import { parseStringPool } from '../src/arsc/stringPool.js';
import { craftedStringPool, poolOfOneLongString, poolOfOverlappingStrings, tableReferencingOneLongString, xmlWithPool } from './helpers/chunks.js';
import { TempDir, buildZip, tinyApkEntries } from './helpers/zipBuilder.js';

/** A generous bound: the old readers grew by gigabytes on these inputs. */
const MAX_HEAP_GROWTH = 256 * 1024 * 1024;

function outcome(fn: () => unknown): { code?: string; heapGrowth: number } {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let code: string | undefined;
  try {
    fn();
  } catch (e) {
    code = e instanceof ConverterError ? e.code : `not coded: ${String(e)}`;
  }
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { code, heapGrowth: peak - before };
}

describe('string pools: each string decoded once, decoding and references bounded', function () {
  this.timeout(120_000);

  it('parseBinaryXml_200kIndicesOnOneLongString_stringPoolTooLargeWithinHeapBound', () => {
    const xml = xmlWithPool(poolOfOneLongString(100_000, 200_000));
    const r = outcome(() => parseBinaryXml(xml));
    expect(r.code).to.equal('STRING_POOL_TOO_LARGE');
    expect(r.heapGrowth).to.be.below(MAX_HEAP_GROWTH);
  });

  it('parseBinaryXml_overlappingStrings_stringPoolTooLargeWithinHeapBound', () => {
    const xml = xmlWithPool(poolOfOverlappingStrings(40_000));
    const r = outcome(() => parseBinaryXml(xml));
    expect(r.code).to.equal('STRING_POOL_TOO_LARGE');
    expect(r.heapGrowth).to.be.below(MAX_HEAP_GROWTH);
  });

  it('parseResourceTable_65535ResourcesOnOneLongString_refusedWhenTheValuesAreRead', async () => {
    const tmp = new TempDir();
    try {
      const apk = tmp.file('long-string.apk');
      writeFileSync(apk, buildZip([...tinyApkEntries().filter((e) => e.name !== 'resources.arsc'), { name: 'resources.arsc', data: tableReferencingOneLongString(65_535), method: 0 }]));
      const before = process.memoryUsage().heapUsed;
      const err = await convertApk(apk, tmp.file('out.aab'), { overwrite: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ConverterError);
      expect((err as ConverterError).code, (err as ConverterError).detail).to.equal('STRING_POOL_TOO_LARGE');
      expect(process.memoryUsage().heapUsed - before).to.be.below(MAX_HEAP_GROWTH);
    } finally {
      tmp.cleanup();
    }
  });

  it('stringPool_indicesSharingAnOffset_decodeOnceAndReturnTheSameString', () => {
    // Obfuscators do point several indices at one string: that stays legal and cheap.
    const data = Buffer.from([3, 3, 0x61, 0x62, 0x63, 0]);
    const chunk = craftedStringPool(data, new Uint32Array(1000), true);
    const r = new ByteReader(chunk, 'BAD_RESOURCE_TABLE');
    const pool = parseStringPool(r, readChunkHeader(r, 0, chunk.length, 'pool'));
    for (let i = 0; i < 1000; i++) expect(pool.get(i)).to.equal('abc');
    const table = parseResourceTable(tableReferencingOneLongString(16));
    expect(table.valuePool.get(15)).to.have.length(0x7fff);
  });
});
