import { expect } from 'chai';
import protobuf from 'protobufjs';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MESSAGE_DESCRIPTORS } from '../src/proto/descriptors.js';
import { AaptPb, encodeAapt, type AaptMessage } from '../src/proto/aapt.js';
import { AAPT_PROTO } from '../src/proto/aaptSchema.js';
import { BUNDLE_PROTO } from '../src/proto/bundleSchema.js';
import { converterDescriptors, descriptorsSource } from '../src/proto/describe.js';
import { encodersModuleSource } from '../src/proto/encoderSource.js';
import { ENCODERS } from '../src/proto/generated/encoders.js';
import { BundlePb, encodeMessage, type BundleMessage } from '../src/proto/bundle.js';
import { fastEncode } from '../src/proto/fastEncode.js';
import { buildZip, TempDir, tinyApkEntries } from './helpers/zipBuilder.js';

/**
 * fastEncode must give exactly protobufjs's bytes (the AAB's bytes depend on it); for the
 * converter's own types, so must the conversion's path, from the descriptors kept as source
 * (encodeAapt, encodeMessage).
 */
function same(type: protobuf.Type, value: object): void {
  const slow = Buffer.from(type.encode(value).finish());
  const fast = fastEncode(type, value);
  expect(fast.toString('hex')).to.equal(slow.toString('hex'));
  const aapt = (Object.keys(AaptPb) as AaptMessage[]).find((name) => AaptPb[name] === type);
  if (aapt) expect(Buffer.from(encodeAapt(aapt, value)).toString('hex')).to.equal(slow.toString('hex'));
  const bundle = (Object.keys(BundlePb) as BundleMessage[]).find((name) => BundlePb[name] === type);
  if (bundle) expect(Buffer.from(encodeMessage(bundle, value)).toString('hex')).to.equal(slow.toString('hex'));
}

function nested(depth: number): object {
  let node: object = { element: { name: 'leaf' } };
  for (let i = 0; i < depth; i++) node = { element: { name: `e${i}`, child: [node] } };
  return node;
}

describe('fastEncode', () => {
  it('fastEncode_xmlWithEveryFieldKind_sameBytesAsProtobufjs', () => {
    same(AaptPb.XmlNode, {
      element: {
        namespace_declaration: [{ prefix: 'android', uri: 'http://schemas.android.com/apk/res/android', source: { line_number: 2 } }],
        name: 'manifest',
        attribute: [
          { name: 'versionCode', resource_id: 0x0101021b, value: '7', compiled_item: { prim: { int_decimal_value: -7 } }, source: {} },
          { name: 'ratio', compiled_item: { prim: { float_value: 1.1 } } },
          { name: 'nan', compiled_item: { prim: { float_value: Number.NaN } } },
          { name: 'flag', compiled_item: { prim: { boolean_value: false } } },
          { name: 'color', compiled_item: { prim: { color_argb8_value: 0xff00ff00 } } },
          { name: 'ref', compiled_item: { ref: { id: 0x7f010000, type: 1, is_dynamic: { value: true } } } },
        ],
        child: [{ text: 'x'.repeat(300), source: { line_number: 3, column_number: 4 } }],
      },
    });
  });

  it('fastEncode_awkwardStrings_sameBytesAsProtobufjs', () => {
    // Short strings go through protobufjs's own UTF-8 writer, long ones through Buffer's:
    // lone surrogates come out differently in each, and both must be matched.
    // ASCII below 128 characters takes a path of its own (one-byte length): its edges too.
    const ascii = ['\u0000\u007f', 'a'.repeat(127), 'a'.repeat(128), `${'a'.repeat(126)}é`, `${'a'.repeat(127)}é`, `é${'a'.repeat(126)}`];
    for (const s of ['', 'é', '日本', '😀', '\ud800', 'a\udc00b', `${'x'.repeat(38)}\ud800`, `${'x'.repeat(39)}\ud800`, `${'é'.repeat(100)}\udfff😀`, ...ascii]) {
      same(AaptPb.XmlNode, { text: s });
    }
  });

  it('fastEncode_largeAndPackedFields_sameBytesAsProtobufjs', () => {
    same(AaptPb.ResourceTable, {
      package: [
        {
          package_id: { id: 0x7f },
          package_name: 'p'.repeat(200),
          type: [
            {
              type_id: { id: 1 },
              name: 'attr',
              entry: Array.from({ length: 300 }, (_, i) => ({
                entry_id: { id: i },
                name: `e${i}`,
                visibility: { level: 2 },
                overlayable_item: { policy: [1, 4, 9], overlayable_idx: i },
                config_value: [
                  {
                    config: { density: 480, locale: 'pt-BR', sdk_version: 21 },
                    value: { weak: true, compound_value: { attr: { format_flags: 0x10000, min_int: -0x80000000, max_int: 0x7fffffff, symbol: [] } } },
                  },
                ],
              })),
            },
          ],
        },
      ],
    });
    same(AaptPb.Configuration, {});
    same(BundlePb.BundleConfig, { master_resources: { resource_ids: [0x7f010000, -1, 0], resource_names: ['a'] } });
  });

  it('fastEncode_tooDeep_failsLikeProtobufjs', () => {
    same(AaptPb.XmlNode, nested(49));
    expect(() => AaptPb.XmlNode.encode(nested(50))).to.throw('max depth exceeded');
    expect(() => fastEncode(AaptPb.XmlNode, nested(50))).to.throw('max depth exceeded');
    expect(() => encodeAapt('XmlNode', nested(50))).to.throw('max depth exceeded');
  });

  it('fastEncode_mapFieldsOddNamesAndSelfReference_sameBytesAsProtobufjs', () => {
    // Each type's encoder is generated code: names that are not identifiers must still be read,
    // a map falls back to protobufjs for its type only, and a type may hold itself.
    const root = protobuf.parse(
      `syntax = "proto3";
       message Tree { string label = 1; repeated Tree kids = 2; Tree first = 3; map<string, int32> counts = 4; Leaf leaf = 5; }
       message Leaf { sint32 delta = 1; repeated double weights = 2; bytes raw = 3; bool on = 4; int64 big = 5; }`,
      { keepCase: true },
    ).root;
    const leaf = root.lookupType('Leaf');
    const tree = root.lookupType('Tree');
    const leafValue = { delta: -3, weights: [0.5, -1, 1e300], raw: Buffer.from([0, 255]), on: false, big: -2 };
    same(leaf, leafValue);
    same(tree, { label: 'raiz', kids: [{ label: 'a', counts: { x: 1, y: -2 } }, { leaf: leafValue }], first: { kids: [{ label: 'ção' }] } });
    same(tree, {});
    const odd = protobuf.Root.fromJSON({ nested: { Odd: { fields: { "a-b 'c'": { type: 'string', id: 9 }, delta: { type: 'sint32', id: 1 } } } } }).lookupType('Odd');
    same(odd, { "a-b 'c'": 'x', delta: 1 });
  });

  it('descriptorsAndEncoders_matchTheSchemas_filesCurrent', () => {
    // descriptors.ts and generated/encoders.ts are source generated from the two schemas: an edit
    // to either must regenerate them (npx tsx packages/converter/scripts/proto-descriptors.ts).
    const described = converterDescriptors([AAPT_PROTO, BUNDLE_PROTO]);
    expect(MESSAGE_DESCRIPTORS).to.deep.equal(described);
    const source = (path: string): string => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
    expect(source('../src/proto/descriptors.ts')).to.equal(descriptorsSource(described));
    // And the encoders written from them, one per message type the conversion encodes.
    expect(source('../src/proto/generated/encoders.ts')).to.equal(encodersModuleSource(described));
    expect(Object.keys(ENCODERS).sort()).to.deep.equal(Object.keys(described).sort());
    expect(Object.keys(MESSAGE_DESCRIPTORS)).to.include.members(['aapt.pb.ResourceTable', 'aapt.pb.XmlNode', 'android.bundle.BundleConfig', 'android.bundle.Assets']);
  });

  it('conversionAndBuildApks_neverLoadProtobufjs_decodingDoes', function () {
    // A conversion encodes with the generated encoders only, and building APKs decodes from the
    // descriptors: protobufjs (and its `long`) is loaded on first decode of a protobufjs type
    // (proto/protobufjs.ts), not at every CLI start. In a process of its
    // own, since this one has loaded it.
    this.timeout(60_000);
    const tmp = new TempDir();
    try {
      const apk = tmp.file('tiny.apk', buildZip(tinyApkEntries()));
      const src = (p: string): string => pathToFileURL(fileURLToPath(new URL(`../src/${p}`, import.meta.url))).href;
      const script = `
        import { createRequire } from 'node:module';
        import { buildApks, convertApk } from '${src('index.ts')}';
        import { decodeResourceTablePb } from '${src('proto/aapt.ts')}';
        import { ZipReader } from '${src('zip/index.ts')}';
        const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/protobufjs/'));
        await convertApk(${JSON.stringify(apk)}, ${JSON.stringify(tmp.file('tiny.aab'))});
        const afterConversion = loaded();
        await buildApks(${JSON.stringify(tmp.file('tiny.aab'))}, ${JSON.stringify(tmp.file('tiny-universal.apk'))});
        const afterBuildApks = loaded();
        const aab = await ZipReader.open(${JSON.stringify(tmp.file('tiny.aab'))});
        decodeResourceTablePb(await aab.read(aab.get('base/resources.pb')));
        await aab.close();
        console.log(JSON.stringify({ afterConversion, afterBuildApks, afterDecoding: loaded() }));
      `;
      const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(res.status, res.stderr).to.equal(0);
      expect(JSON.parse(res.stdout.trim())).to.deep.equal({ afterConversion: false, afterBuildApks: false, afterDecoding: true });
    } finally {
      tmp.cleanup();
    }
  });
});
