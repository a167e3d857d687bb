import { expect } from 'chai';
import { ByteReader, ChunkType, parseResourceTable, parseStringPool, readChunkHeader } from '../src/arsc/index.js';
import { ConverterError } from '../src/errors.js';
import {
  configBytes,
  libraryChunk,
  overlayableChunk,
  packageChunk,
  stagedAliasChunk,
  stringPool,
  tableChunk,
  typeChunk,
  typeSpecChunk,
} from './helpers/chunks.js';

function pool(bytes: Uint8Array) {
  const r = new ByteReader(bytes, 'BAD_RESOURCE_TABLE');
  const h = readChunkHeader(r, 0, bytes.length, 'test');
  expect(h.type).to.equal(ChunkType.STRING_POOL);
  return parseStringPool(r, h);
}

function expectCode(fn: () => unknown, code: string): ConverterError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(ConverterError);
    expect((e as ConverterError).code).to.equal(code);
    return e as ConverterError;
  }
  throw new Error('expected a ConverterError');
}

/** One package, two types (string, attr), used by several tests below. */
export function sampleTable(): Uint8Array {
  const values = stringPool(['hello', 'res/layout/main.xml', 'b'], { utf8: true });
  const pkg = packageChunk({
    id: 0x7f,
    name: 'com.example.app',
    types: ['string', 'layout', 'attr'],
    keys: ['greeting', 'farewell', 'main', 'size'],
    chunks: [
      typeSpecChunk(1, [0x40000000, 0]),
      typeChunk({
        id: 1,
        entryCount: 2,
        entries: [
          { index: 0, key: 0, flags: 0x2, value: [0x03, 0] },
          { index: 1, key: 1, value: [0x12, 0xffffffff] },
        ],
      }),
      typeChunk({
        id: 1,
        entryCount: 2,
        config: configBytes({ language: [0x66, 0x72] }),
        entries: [{ index: 1, key: 1, value: [0x10, 7] }],
        mode: 'offset16',
      }),
      typeSpecChunk(2, [0]),
      typeChunk({ id: 2, entryCount: 1, entries: [{ index: 0, key: 2, value: [0x03, 1] }], mode: 'sparse' }),
      typeSpecChunk(3, [0]),
      typeChunk({
        id: 3,
        entryCount: 1,
        entries: [{ index: 0, key: 3, map: { parent: 0, items: [[0x01000000, 0x10, 0x40]] } }],
      }),
    ],
  });
  return tableChunk(values, [pkg]);
}

describe('arsc string pool', () => {
  it('parseStringPool_utf8Strings_decodesEveryString', () => {
    const long = 'x'.repeat(300);
    const p = pool(stringPool(['', 'a', 'ação', long, '😀'], { utf8: true }));
    expect(p.utf8).to.equal(true);
    expect([0, 1, 2, 3, 4].map((i) => p.get(i))).to.deep.equal(['', 'a', 'ação', long, '😀']);
  });

  it('parseStringPool_utf16Strings_decodesEveryStringIncludingLongLengths', () => {
    const long = 'y'.repeat(0x8005);
    const p = pool(stringPool(['abc', long, '日本'], { utf8: false }));
    expect(p.utf8).to.equal(false);
    expect(p.get(0)).to.equal('abc');
    expect(p.get(1)).to.equal(long);
    expect(p.get(2)).to.equal('日本');
  });

  it('parseStringPool_indexOutsidePool_returnsEmptyStringAsAapt2', () => {
    expect(pool(stringPool(['a'])).get(5)).to.equal('');
  });

  it('parseStringPool_styledString_returnsSpansWithTagNames', () => {
    const p = pool(stringPool(['Hello bold', 'b'], { styles: [[{ name: 1, first: 6, last: 9 }], []] }));
    expect(p.styleAt(0)).to.deep.equal([{ nameIndex: 1, name: 'b', firstChar: 6, lastChar: 9 }]);
    expect(p.styleAt(1)).to.equal(undefined);
    expect(p.styleAt(7)).to.equal(undefined);
  });

  it('parseStringPool_cesu8Surrogates_decodesLeniently', () => {
    // U+1F600 written as two 3-byte surrogates (modified UTF-8, as old aapt did).
    const bytes = stringPool(['??????']);
    const cesu = [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80];
    const at = bytes.indexOf(0x3f); // rewrite the payload in place
    cesu.forEach((b, i) => (bytes[at + i] = b));
    expect(pool(bytes).get(0)).to.equal('😀');
  });

  it('parseStringPool_countLargerThanChunk_throwsBadResourceTable', () => {
    const bytes = stringPool(['a', 'b']);
    new DataView(bytes.buffer).setUint32(8, 1000, true);
    expectCode(() => pool(bytes), 'BAD_RESOURCE_TABLE');
  });

  it('parseStringPool_hugeCount_throwsStringPoolTooLarge', () => {
    const bytes = stringPool(['a']);
    new DataView(bytes.buffer).setUint32(8, 0x7fffffff, true);
    expectCode(() => pool(bytes), 'STRING_POOL_TOO_LARGE');
  });

  it('parseStringPool_stringLengthPastEnd_throwsOnAccessWithOffset', () => {
    const bytes = stringPool(['abc'], { utf8: false });
    new DataView(bytes.buffer).setUint16(28 + 4, 0x7000, true);
    const err = expectCode(() => pool(bytes).get(0), 'BAD_RESOURCE_TABLE');
    expect(err.detail).to.match(/string #0 at offset \d+/);
  });
});

describe('arsc table', () => {
  it('parseResourceTable_sampleTable_readsPackageTypesAndEntries', () => {
    const t = parseResourceTable(sampleTable());
    expect(t.valuePool.get(0)).to.equal('hello');
    expect(t.packages).to.have.length(1);
    const p = t.packages[0];
    expect(p).to.include({ id: 0x7f, name: 'com.example.app', typeIdOffset: 0 });
    expect(p.typeSpecs.map((s) => [s.id, s.name, s.flags])).to.deep.equal([
      [1, 'string', [0x40000000, 0]],
      [2, 'layout', [0]],
      [3, 'attr', [0]],
    ]);
    expect(p.types.map((x) => [x.id, x.name, x.flags, x.entries.length])).to.deep.equal([
      [1, 'string', 0, 2],
      [1, 'string', 2, 1],
      [2, 'layout', 1, 1],
      [3, 'attr', 0, 1],
    ]);
    const [greeting, farewell] = p.types[0].entries;
    expect(greeting).to.deep.include({ index: 0, name: 'greeting', flags: 0x2 });
    expect(greeting.value).to.deep.equal({ kind: 'simple', value: { dataType: 3, data: 0 } });
    expect(farewell.value).to.deep.equal({ kind: 'simple', value: { dataType: 0x12, data: 0xffffffff } });
    expect(p.types[1].entries[0]).to.deep.include({ index: 1, name: 'farewell' });
    expect(p.types[1].config.language).to.deep.equal([0x66, 0x72]);
    expect(p.types[3].entries[0].value).to.deep.equal({
      kind: 'map',
      parent: 0,
      items: [{ name: 0x01000000, value: { dataType: 0x10, data: 0x40 } }],
    });
  });

  it('parseResourceTable_sparseEntriesOutOfOrder_returnsEntriesByIndex', () => {
    const pkg = packageChunk({
      id: 0x7f,
      name: 'p',
      types: ['integer'],
      keys: ['a', 'b', 'c'],
      chunks: [
        typeChunk({
          id: 1,
          entryCount: 300,
          mode: 'sparse',
          entries: [
            { index: 250, key: 2, value: [0x10, 3] },
            { index: 3, key: 0, value: [0x10, 1] },
          ],
        }),
      ],
    });
    const t = parseResourceTable(tableChunk(stringPool([]), [pkg]));
    expect(t.packages[0].types[0].entries.map((e) => [e.index, e.name, e.value])).to.deep.equal([
      [3, 'a', { kind: 'simple', value: { dataType: 0x10, data: 1 } }],
      [250, 'c', { kind: 'simple', value: { dataType: 0x10, data: 3 } }],
    ]);
  });

  it('parseResourceTable_compactEntries_readsKeyTypeAndDataFromEightBytes', () => {
    const pkg = packageChunk({
      id: 0x7f,
      name: 'p',
      types: ['color'],
      keys: ['red', 'blue'],
      chunks: [
        typeChunk({
          id: 1,
          entryCount: 2,
          mode: 'offset16',
          entries: [
            { index: 0, key: 1, compact: true, value: [0x1c, 0xffff0000], flags: 0x2 },
            { index: 1, key: 0, compact: true, value: [0x1d, 0xff] },
          ],
        }),
      ],
    });
    const [a, b] = parseResourceTable(tableChunk(stringPool([]), [pkg])).packages[0].types[0].entries;
    expect(a).to.deep.include({ index: 0, keyIndex: 1, name: 'blue', flags: 0x0a });
    expect(a.value).to.deep.equal({ kind: 'simple', value: { dataType: 0x1c, data: 0xffff0000 } });
    expect(b).to.deep.include({ index: 1, name: 'red' });
  });

  it('parseResourceTable_libraryOverlayableAndStagedAlias_readsEveryChunk', () => {
    const pkg = packageChunk({
      id: 0,
      name: 'com.lib',
      types: ['string'],
      keys: ['s'],
      chunks: [
        typeChunk({ id: 1, entryCount: 1, entries: [{ index: 0, key: 0, value: [0x07, 0x00010000] }] }),
        libraryChunk([[2, 'com.other']]),
        overlayableChunk('MyOverlay', 'overlay://theme', [[0x11, [0x00010000]]]),
        stagedAliasChunk([[0x01fd0000, 0x01010000]]),
      ],
    });
    const p = parseResourceTable(tableChunk(stringPool([]), [pkg])).packages[0];
    expect(p.id).to.equal(0);
    expect(p.libraries).to.deep.equal([{ packageId: 2, packageName: 'com.other' }]);
    expect(p.overlayables).to.deep.equal([
      { name: 'MyOverlay', actor: 'overlay://theme', policies: [{ flags: 0x11, resourceIds: [0x00010000] }] },
    ]);
    expect(p.stagedAliases).to.deep.equal([{ stagedId: 0x01fd0000, finalizedId: 0x01010000 }]);
  });

  it('parseResourceTable_oldPackageHeaderWithoutTypeIdOffset_parses', () => {
    const pkg = packageChunk({
      id: 0x7f,
      name: 'old',
      types: ['bool'],
      keys: ['b'],
      oldHeader: true,
      chunks: [typeChunk({ id: 1, entryCount: 1, entries: [{ index: 0, key: 0, value: [0x12, 0] }] })],
    });
    const p = parseResourceTable(tableChunk(stringPool([]), [pkg])).packages[0];
    expect(p.typeIdOffset).to.equal(0);
    expect(p.types[0].name).to.equal('bool');
  });

  it('parseResourceTable_notATable_throwsBadResourceTable', () => {
    expectCode(() => parseResourceTable(stringPool(['a'])), 'BAD_RESOURCE_TABLE');
    expectCode(() => parseResourceTable(new Uint8Array(3)), 'BAD_RESOURCE_TABLE');
  });

  it('parseResourceTable_packageIdAbove255_throwsBadResourceTable', () => {
    const bytes = sampleTable();
    const pkgAt = 12 + readChunkHeader(new ByteReader(bytes, 'BAD_RESOURCE_TABLE'), 12, bytes.length, 't').size;
    new DataView(bytes.buffer).setUint32(pkgAt + 8, 0x100, true);
    expectCode(() => parseResourceTable(bytes), 'BAD_RESOURCE_TABLE');
  });

  it('parseResourceTable_mapCountPastChunk_throwsWithOffset', () => {
    const pkg = packageChunk({
      id: 0x7f,
      name: 'p',
      types: ['style'],
      keys: ['s'],
      chunks: [typeChunk({ id: 1, entryCount: 1, entries: [{ index: 0, key: 0, map: { parent: 0, items: [[0x01010000, 0x10, 1]] } }] })],
    });
    const bytes = tableChunk(stringPool([]), [pkg]);
    // The map entry's count is the last u32 before its single 12-byte item.
    new DataView(bytes.buffer).setUint32(bytes.length - 12 - 4, 0x10000000, true);
    const err = expectCode(() => parseResourceTable(bytes), 'BAD_RESOURCE_TABLE');
    expect(err.detail).to.match(/offset \d+/);
  });

  it('parseResourceTable_everyTruncation_throwsOnlyConverterErrors', () => {
    const bytes = sampleTable();
    for (let n = 0; n < bytes.length; n++) {
      const cut = bytes.slice(0, n);
      if (n >= 8) new DataView(cut.buffer).setUint32(4, n, true);
      try {
        parseResourceTable(cut);
      } catch (e) {
        expect(e, `truncated at ${n}`).to.be.instanceOf(ConverterError);
      }
    }
  });

  it('parseResourceTable_randomByteFlips_throwsOnlyConverterErrors', () => {
    const bytes = sampleTable();
    let seed = 12345;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let round = 0; round < 3000; round++) {
      const b = bytes.slice();
      for (let k = 0; k < 4; k++) b[rand() % b.length] = rand() & 0xff;
      try {
        const t = parseResourceTable(b);
        for (const p of t.packages) for (const ty of p.types) for (const e of ty.entries) void e.name;
      } catch (e) {
        expect(e, `round ${round}`).to.be.instanceOf(ConverterError);
      }
    }
  });
});
