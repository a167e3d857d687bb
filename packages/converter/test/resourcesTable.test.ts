import { expect } from 'chai';
import { parseResourceTable } from '../src/arsc/index.js';
import { decodeResourceTablePb, encodeAapt, type PbResourceTable } from '../src/proto/aapt.js';
import { writeResourceTable } from '../src/resources/tableBytes.js';
import { tableViewOf } from '../src/validate/table.js';
import { Writer } from '../src/proto/protoWriter.js';
import { resValueToItem, writeResValueItem, type ValueContext } from '../src/resources/valueProto.js';
import { emptyStringPool, type StringPool } from '../src/arsc/stringPool.js';
import {
  buildResourceTableProto,
  listReferencedFiles,
  resourceTableToProto,
  tableSummary,
  type ConversionWarning,
} from '../src/resources/index.js';
import {
  ascii,
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

const TYPES = ['string', 'drawable', 'attr', 'style', 'array', 'plurals', 'id', 'raw', 'color', 'weird.type'];
const T = Object.fromEntries(TYPES.map((n, i) => [n, i + 1])) as Record<string, number>;
const KEYS = ['hello', 'styled', 'icon', 'layout_ref', 'size', 'mode', 'Theme', 'list', 'count', 'my_id', 'clip', 'c', 'x'];
const K = Object.fromEntries(KEYS.map((n, i) => [n, i])) as Record<string, number>;
const VALUES = ['Hello', 'Hi bold', 'b', 'res/drawable/icon.png', 'res/xml/clip.xml', 'res/raw/data.xml', 'one', 'other'];

function richTable(): Uint8Array {
  const values = stringPool(VALUES, { styles: [[], [{ name: 2, first: 3, last: 6 }]] });
  const pkg = packageChunk({
    id: 0x7f,
    name: 'com.example',
    types: TYPES,
    keys: KEYS,
    chunks: [
      typeSpecChunk(T.string, [0x40000000, 0x40000000, 0x60000000]),
      typeChunk({
        id: T.string,
        entryCount: 3,
        entries: [
          { index: 0, key: K.hello, flags: 0x2, value: [0x03, 0] },
          // The clone of hello under its staged id: dropped by the staged alias.
          { index: 1, key: K.hello, flags: 0x2, value: [0x03, 0] },
          { index: 2, key: K.styled, flags: 0x2, value: [0x03, 1] },
        ],
      }),
      typeChunk({
        id: T.string,
        entryCount: 3,
        config: configBytes({ language: ascii('pt', 2), country: ascii('BR', 2) }),
        entries: [{ index: 0, key: K.hello, value: [0x03, 6] }],
      }),
      // The same configuration twice: the last value wins.
      typeChunk({
        id: T.string,
        entryCount: 3,
        config: configBytes({ language: ascii('pt', 2), country: ascii('BR', 2) }, 48),
        entries: [{ index: 0, key: K.hello, value: [0x03, 7] }],
      }),
      typeChunk({
        id: T.drawable,
        entryCount: 2,
        config: configBytes({ density: 480 }),
        entries: [
          { index: 0, key: K.icon, value: [0x03, 3] },
          { index: 1, key: K.layout_ref, value: [0x03, 4] },
        ],
      }),
      typeChunk({
        id: T.attr,
        entryCount: 2,
        entries: [
          { index: 0, key: K.size, map: { parent: 0, items: [[0x01000000, 0x10, 0x04]] } },
          {
            index: 1,
            key: K.mode,
            flags: 0x4,
            map: {
              parent: 0,
              items: [
                [0x01000000, 0x10, 0x10000],
                [0x01000001, 0x10, 0],
                [0x01000002, 0x10, 5],
                [0x7f0a0000, 0x10, 0],
                [0x7f0a0001, 0x10, 1],
              ],
            },
          },
        ],
      }),
      typeChunk({
        id: T.style,
        entryCount: 1,
        entries: [{ index: 0, key: K.Theme, map: { parent: 0x01030005, items: [[0x01010098, 0x1c, 0xff000000], [0x01000000, 0x10, 1], [0x7f030000, 0x02, 0x7f030001]] } }],
      }),
      typeChunk({
        id: T.array,
        entryCount: 1,
        entries: [{ index: 0, key: K.list, map: { parent: 0, items: [[0x02000000, 0x12, 0], [0x02000001, 0x04, 0x3fc00000], [0x02000002, 0x01, 0]] } }],
      }),
      typeChunk({
        id: T.plurals,
        entryCount: 1,
        entries: [{ index: 0, key: K.count, map: { parent: 0, items: [[0x01000004, 0x03, 7], [0x01000006, 0x03, 6], [0x01000003, 0x10, 1]] } }],
      }),
      typeChunk({
        id: T.id,
        entryCount: 3,
        entries: [
          { index: 0, key: K.my_id, flags: 0x4, value: [0x12, 0] },
          { index: 1, key: K.x, value: [0x01, 0x7f0a0000] },
          { index: 2, key: K.c, map: { parent: 0, items: [] } },
        ],
      }),
      typeChunk({ id: T.raw, entryCount: 1, entries: [{ index: 0, key: K.clip, value: [0x03, 5] }] }),
      typeChunk({
        id: T.color,
        entryCount: 5,
        mode: 'sparse',
        entries: [
          { index: 0, key: K.c, value: [0x1d, 0xff0000] },
          { index: 1, key: K.x, value: [0x07, 0x02010000] },
          { index: 2, key: K.hello, value: [0x08, 0x02010001] },
          { index: 3, key: K.mode, value: [0x00, 1] },
          { index: 4, key: K.size, value: [0x10, 0] },
        ],
      }),
      typeChunk({ id: T['weird.type'], entryCount: 1, entries: [{ index: 0, key: K.x, value: [0x10, 1] }] }),
      libraryChunk([[2, 'com.lib']]),
      overlayableChunk('Theme', 'overlay://x', [[0x1 | 0x8 | 0x100, [0x7f010000]]]),
      stagedAliasChunk([[0x7f010001, 0x7f010000]]),
    ],
  });
  return tableChunk(values, [pkg]);
}

type Obj = Record<string, unknown>;
const get = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

function entryOf(decoded: Obj, typeName: string, entryName: string): Obj {
  const pkg = (decoded.package as Obj[])[0];
  const type = (pkg.type as Obj[]).find((t) => t.name === typeName)!;
  return (type.entry as Obj[]).find((e) => e.name === entryName)!;
}

describe('resources table → aapt.pb.ResourceTable', () => {
  const table = parseResourceTable(richTable());
  const warnings: ConversionWarning[] = [];
  const bytes = resourceTableToProto(table, { xmlFilePaths: new Set(['res/xml/clip.xml']), warnings });
  const pb = decodeResourceTablePb(bytes);

  it('resourceTableToProto_package_keepsIdNameAndTypeOrder', () => {
    const pkg = (pb.package as Obj[])[0];
    expect(pkg.package_id).to.deep.equal({ id: 0x7f });
    expect(pkg.package_name).to.equal('com.example');
    expect((pkg.type as Obj[]).map((t) => [get(t, 'type_id', 'id'), t.name])).to.deep.equal(
      TYPES.slice(0, -1).map((n, i) => [i + 1, n]),
    );
  });

  it('resourceTableToProto_unknownTypeName_skipsItWithWarning', () => {
    expect(warnings.map((w) => w.code)).to.include('UNKNOWN_RESOURCE_TYPE');
    expect(warnings.find((w) => w.code === 'UNKNOWN_RESOURCE_TYPE')!.message).to.contain('weird.type');
  });

  it('resourceTableToProto_publicEntries_setVisibilityAndStagedApi', () => {
    const hello = entryOf(pb, 'string', 'hello');
    expect(hello.visibility).to.deep.equal({ level: 2 });
    expect(entryOf(pb, 'string', 'styled').visibility).to.deep.equal({ level: 2, staged_api: true });
    expect(entryOf(pb, 'drawable', 'icon').visibility).to.deep.equal({});
  });

  it('resourceTableToProto_stagedAlias_setsStagedIdAndDropsTheClone', () => {
    expect(entryOf(pb, 'string', 'hello').staged_id).to.deep.equal({ staged_id: 0x7f010001 });
    const strings = (((pb.package as Obj[])[0].type as Obj[])[0].entry as Obj[]).map((e) => get(e, 'entry_id', 'id') ?? 0);
    expect(strings).to.deep.equal([0, 2]);
  });

  it('resourceTableToProto_overlayable_setsItemWithPoliciesInAapt2Order', () => {
    expect(pb.overlayable).to.deep.equal([{ name: 'Theme', actor: 'overlay://x' }]);
    expect(entryOf(pb, 'string', 'hello').overlayable_item).to.deep.equal({ policy: [1, 4, 9] });
  });

  it('resourceTableToProto_libraryChunk_becomesDynamicRefTable', () => {
    expect(pb.dynamic_ref_table).to.deep.equal([{ package_id: { id: 2 }, package_name: 'com.lib' }]);
  });

  it('resourceTableToProto_repeatedConfig_keepsOneValueLastWins', () => {
    const values = entryOf(pb, 'string', 'hello').config_value as Obj[];
    expect(values.map((v) => v.config)).to.deep.equal([{}, { locale: 'pt-BR' }]);
    expect(get(values[1], 'value', 'item', 'str')).to.deep.equal({ value: 'other' });
  });

  it('resourceTableToProto_fileReferences_typedByPathAndXmlSet', () => {
    const file = (t: string, e: string): unknown => get((entryOf(pb, t, e).config_value as Obj[])[0], 'value', 'item', 'file');
    expect(file('drawable', 'icon')).to.deep.equal({ path: 'res/drawable/icon.png', type: 1 });
    expect(file('drawable', 'layout_ref')).to.deep.equal({ path: 'res/xml/clip.xml', type: 3 });
    expect(file('raw', 'clip')).to.deep.equal({ path: 'res/raw/data.xml' });
  });

  it('resourceTableToProto_attr_copiesFormatMinMaxSymbolsAndWeak', () => {
    const size = get((entryOf(pb, 'attr', 'size').config_value as Obj[])[0], 'value');
    expect(size).to.deep.equal({ compound_value: { attr: { format_flags: 4, min_int: -0x80000000, max_int: 0x7fffffff } } });
    const mode = get((entryOf(pb, 'attr', 'mode').config_value as Obj[])[0], 'value');
    expect(mode).to.deep.equal({
      weak: true,
      compound_value: {
        attr: {
          format_flags: 0x10000,
          max_int: 5,
          symbol: [
            { name: { id: 0x7f0a0000 }, type: 0x10 },
            { name: { id: 0x7f0a0001 }, value: 1, type: 0x10 },
          ],
        },
      },
    });
  });

  it('resourceTableToProto_style_keepsParentAndSkipsInternalKeys', () => {
    expect(get((entryOf(pb, 'style', 'Theme').config_value as Obj[])[0], 'value', 'compound_value')).to.deep.equal({
      style: {
        parent: { id: 0x01030005 },
        entry: [
          { key: { id: 0x01010098 }, item: { prim: { color_argb8_value: 0xff000000 } } },
          { key: { id: 0x7f030000 }, item: { ref: { type: 1, id: 0x7f030001 } } },
        ],
      },
    });
  });

  it('resourceTableToProto_arrayAndPlurals_keepItemsAndArityOrder', () => {
    expect(get((entryOf(pb, 'array', 'list').config_value as Obj[])[0], 'value', 'compound_value')).to.deep.equal({
      array: { element: [{ item: { prim: { boolean_value: false } } }, { item: { prim: { float_value: 1.5 } } }, { item: { ref: {} } }] },
    });
    expect(get((entryOf(pb, 'plurals', 'count').config_value as Obj[])[0], 'value', 'compound_value')).to.deep.equal({
      plural: { entry: [{ arity: 1, item: { str: { value: 'one' } } }, { arity: 5, item: { str: { value: 'other' } } }] },
    });
  });

  it('resourceTableToProto_idType_emitsIdUnlessReferenceWeakAsEntryFlag', () => {
    const item = (e: string): unknown => get((entryOf(pb, 'id', e).config_value as Obj[])[0], 'value', 'item');
    expect(item('my_id')).to.deep.equal({ id: {} });
    expect(get((entryOf(pb, 'id', 'my_id').config_value as Obj[])[0], 'value', 'weak')).to.equal(true);
    expect(get((entryOf(pb, 'id', 'x').config_value as Obj[])[0], 'value', 'weak')).to.equal(undefined);
    expect(item('x')).to.deep.equal({ ref: { id: 0x7f0a0000 } });
    expect(item('c')).to.deep.equal({ id: {} });
  });

  it('resourceTableToProto_primitivesAndDynamicRefs_setOneofsEvenWhenZero', () => {
    const item = (e: string): unknown => get((entryOf(pb, 'color', e).config_value as Obj[])[0], 'value', 'item');
    expect(item('c')).to.deep.equal({ prim: { color_rgb8_value: 0xff0000 } });
    expect(item('x')).to.deep.equal({ ref: { id: 0x02010000, is_dynamic: { value: true } } });
    expect(item('hello')).to.deep.equal({ ref: { type: 1, id: 0x02010001, is_dynamic: { value: true } } });
    expect(item('mode')).to.deep.equal({ prim: { empty_value: {} } });
    expect(item('size')).to.deep.equal({ prim: { int_decimal_value: 0 } });
  });

  it('resourceTableToProto_styledString_keepsSpans', () => {
    const built = buildResourceTableProto(parseResourceTable(richTable()), { xmlFilePaths: new Set() });
    const styled = built.package[0].type[0].entry.find((e) => e.name === 'styled')!;
    expect(styled.config_value[0].value.item).to.deep.equal({
      styled_str: { value: 'Hi bold', span: [{ tag: 'b', first_char: 3, last_char: 6 }] },
    });
  });

  it('resourceTableToProto_richTable_theEncodersBytesOfItsMessageAndTheSameWarnings', () => {
    const table = parseResourceTable(richTable());
    for (const xmlFilePaths of [new Set(['res/xml/clip.xml']), new Set<string>()]) {
      const fromMessage: ConversionWarning[] = [];
      const direct: ConversionWarning[] = [];
      const expected = Buffer.from(encodeAapt('ResourceTable', buildResourceTableProto(table, { xmlFilePaths, warnings: fromMessage })));
      expect(Buffer.from(resourceTableToProto(table, { xmlFilePaths, warnings: direct })).equals(expected)).to.equal(true);
      expect(direct).to.deep.equal(fromMessage);
      expect(direct.length).to.be.greaterThan(0);
      expect(writeResourceTable(table, { xmlFilePaths }).view).to.deep.equal(tableViewOf(decodeResourceTablePb(expected) as unknown as PbResourceTable));
    }
  });

  it('resourceTableToProto_sameInputTwice_identicalBytes', () => {
    const again = resourceTableToProto(parseResourceTable(richTable()), { xmlFilePaths: new Set(['res/xml/clip.xml']) });
    expect(Buffer.from(again).equals(Buffer.from(bytes))).to.equal(true);
  });

  it('writeResValueItem_everyDataTypeAndString_sameBytesAndWarningsAsTheItem', () => {
    const strings = ['', 'plain', 'res/layout/a.xml', 'res/drawable/b.png', 'res/raw/c.bin', 'styled', 'é☃😀', 'res/x'];
    const pool: StringPool = {
      ...emptyStringPool(),
      count: strings.length,
      get: (i) => strings[i] ?? '',
      styleAt: (i) => (i === 5 ? [{ nameIndex: 1, name: 'b', firstChar: 0, lastChar: 3 }, { nameIndex: 0, name: '', firstChar: 2, lastChar: 0 }] : undefined),
    };
    const values: [number, number][] = [[0x00, 0], [0x00, 1], [0x00, 9], [0x04, 0x3fc00000], [0x04, 0xffc00001], [0x05, 0x1001], [0x06, 0x2002], [0x10, 0xffffff85], [0x10, 5], [0x11, 0xff], [0x12, 0], [0x12, 7], [0x1c, 0xff00ff00], [0x1d, 0xff0000], [0x1e, 0xf0f0], [0x1f, 0xf00], [0x42, 5]];
    for (const [type, data] of [[0x01, 0], [0x01, 0x7f010001], [0x02, 0x7f020002], [0x07, 0x7f030003], [0x08, 0x7f040004], [0x07, 0], [0x02, 0]] as const) values.push([type, data]);
    for (let i = 0; i < strings.length + 1; i++) values.push([0x03, i]);
    for (const typeName of ['anim', 'string', 'raw', 'drawable', 'id', 'layout']) {
      for (const [dataType, data] of values) {
        const given: string[] = [];
        const written: string[] = [];
        const ctx = (warnings: string[]): ValueContext => ({ pool, fileType: (path, inferred) => (path.endsWith('.xml') ? 3 : inferred), warn: (w) => warnings.push(w.code) });
        const expected = Buffer.from(encodeAapt('Item', resValueToItem(typeName, { dataType, data }, ctx(given))));
        const w = new Writer();
        writeResValueItem(w, typeName, { dataType, data }, ctx(written));
        expect(w.buf.subarray(0, w.pos).equals(expected), `${typeName} 0x${dataType.toString(16)} ${data}`).to.equal(true);
        expect(written).to.deep.equal(given);
      }
    }
  });

  it('listReferencedFiles_table_listsTopLevelResPathsOnly', () => {
    expect(listReferencedFiles(table)).to.deep.equal(['res/drawable/icon.png', 'res/xml/clip.xml', 'res/raw/data.xml']);
  });

  it('tableSummary_table_countsLocalesDensitiesEntriesTypes', () => {
    expect(tableSummary(table)).to.deep.equal({ locales: ['pt-BR'], densities: [480], entryCount: 20, typeCount: 10 });
  });
});
