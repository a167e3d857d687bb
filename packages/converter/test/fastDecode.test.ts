/**
 * fastDecode against protobufjs: for every resource table and proto XML file of AABs converted
 * from corpus APKs (a few when the corpus is absent: a tiny APK made here), the plain object
 * equals protobufjs's `toObject(decode(bytes), { longs: Number, enums: Number, arrays: true })`;
 * and hostile bytes fail as protobufjs fails (truncated, too deep), never hang or crash.
 */
import { expect } from 'chai';
import { convertApk } from '../src/index.js';
import { AaptPb, encodeAapt } from '../src/proto/aapt.js';
import { BundlePb, decodeMessage, type BundleMessage } from '../src/proto/bundle.js';
import { fastDecode } from '../src/proto/fastDecode.js';
import { ZipReader } from '../src/zip/index.js';
import { listCorpus } from './helpers/corpus.js';
import { buildZip, TempDir, tinyApkEntries } from './helpers/zipBuilder.js';

function protobufjsObject(name: 'ResourceTable' | 'XmlNode', bytes: Uint8Array): unknown {
  const type = AaptPb[name];
  return type.toObject(type.decode(bytes), { longs: Number, enums: Number, arrays: true });
}

/** Bytes (Uint8Array views either way) compared as arrays, so deep equality reads their content. */
function normalised(value: unknown): unknown {
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(normalised);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v)]));
  return value;
}

async function protoFiles(aab: string): Promise<{ name: string; type: 'ResourceTable' | 'XmlNode'; bytes: Buffer }[]> {
  const zip = await ZipReader.open(aab);
  try {
    const out: { name: string; type: 'ResourceTable' | 'XmlNode'; bytes: Buffer }[] = [];
    for (const e of zip.entries) {
      if (e.name.endsWith('/resources.pb')) out.push({ name: e.name, type: 'ResourceTable', bytes: await zip.read(e) });
      else if (/^[^/]+\/(manifest\/AndroidManifest|res\/.+)\.xml$/.test(e.name)) out.push({ name: e.name, type: 'XmlNode', bytes: await zip.read(e) });
    }
    return out;
  } finally {
    await zip.close();
  }
}

describe('fastDecode', function () {
  this.timeout(300_000);
  let tmp: TempDir;
  before(() => {
    tmp = new TempDir();
  });
  after(() => tmp.cleanup());

  it('fastDecode_convertedApks_equalsProtobufjsToObject', async () => {
    const apks = [tmp.file('tiny.apk', buildZip(tinyApkEntries())), ...(listCorpus() ?? []).slice(0, 12).map((a) => a.path)];
    let checked = 0;
    for (const [i, apk] of apks.entries()) {
      const aab = tmp.file(`${i}.aab`);
      await convertApk(apk, aab);
      for (const f of await protoFiles(aab)) {
        expect(normalised(fastDecode(`aapt.pb.${f.type}`, f.bytes)), `${apk}: ${f.name}`).to.deep.equal(normalised(protobufjsObject(f.type, f.bytes)));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(3);
  });

  it('decodeMessage_bundleConfigFiles_equalProtobufjsToObjectWithoutDefaults', () => {
    const samples: [BundleMessage, object][] = [
      ['BundleConfig', {}],
      [
        'BundleConfig',
        {
          bundletool: { version: '1.17.2' },
          optimizations: {
            splits_config: { split_dimension: [{ value: 1 }, { value: 2, negate: true }, { value: 3, suffix_stripping: { enabled: true, default_suffix: 'etc2' } }] },
            uncompress_native_libraries: { enabled: false, alignment: 2 },
            uncompress_dex_files: { enabled: true },
            standalone_config: { split_dimension: [], strip_64_bit_libraries: true, dex_merging_strategy: 1 },
            resource_optimizations: { sparse_encoding: 1, collapsed_resource_names: { collapse_resource_names: true, no_collapse_resources: [{ type: 'string', name: 'app_name' }], no_collapse_resource_types: ['id'] } },
          },
          compression: { uncompressed_glob: ['assets/**', 'res/raw/*.ogg'], install_time_asset_module_default_compression: 2 },
          master_resources: { resource_ids: [0x7f010000, -1], resource_names: ['a'] },
          type: 0,
          locales: { inject_locale_config: true },
        },
      ],
      ['Assets', { directory: [{ path: 'assets/tex#tcf_astc', targeting: { texture_compression_format: { value: [{ alias: 8 }] } } }, { path: 'assets' }] }],
      ['NativeLibraries', { directory: [{ path: 'lib/arm64-v8a', targeting: { abi: { alias: 3 } } }, { path: 'lib/arm64-v8a-hwasan', targeting: { abi: { alias: 3 }, sanitizer: { alias: 1 } } }] }],
    ];
    for (const [name, value] of samples) {
      const type = BundlePb[name];
      const bytes = type.encode(type.fromObject(value)).finish();
      const expected = type.toObject(type.decode(bytes), { enums: Number, longs: Number, defaults: false });
      expect(normalised(decodeMessage(name, bytes)), `${name} ${JSON.stringify(value).slice(0, 60)}`).to.deep.equal(normalised(expected));
    }
    expect(() => decodeMessage('BundleConfig', Uint8Array.from([0x0a, 0x05, 0x12]))).to.throw(RangeError);
  });

  it('fastDecode_negativeAndLargeNumbers_asProtobufjs', () => {
    const node = { element: { name: 'x', attribute: [{ name: 'a', compiled_item: { prim: { int_decimal_value: -5, float_value: 1.5 } } }] }, source: { line_number: 4294967295 } };
    const bytes = encodeAapt('XmlNode', node);
    expect(normalised(fastDecode('aapt.pb.XmlNode', bytes))).to.deep.equal(normalised(protobufjsObject('XmlNode', bytes)));
  });

  it('fastDecode_truncated_throwsRangeError', () => {
    const bytes = encodeAapt('XmlNode', { element: { name: 'manifest', attribute: [{ name: 'package', value: 'com.example' }] } });
    for (let cut = 1; cut < bytes.length; cut++) {
      let failedOurs = false;
      let failedTheirs = false;
      try {
        fastDecode('aapt.pb.XmlNode', bytes.subarray(0, cut));
      } catch {
        failedOurs = true;
      }
      try {
        protobufjsObject('XmlNode', bytes.subarray(0, cut));
      } catch {
        failedTheirs = true;
      }
      expect(failedOurs, `cut at ${cut}`).to.equal(failedTheirs);
    }
  });

  it('fastDecode_nestedPastTheLimit_throws', () => {
    const field = (tag: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([(tag << 3) | 2]), varint(body.length), body]);
    const varint = (n: number): Buffer => {
      const out: number[] = [];
      for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
      out.push(n);
      return Buffer.from(out);
    };
    let node = field(1, field(3, Buffer.from('leaf')));
    for (let i = 0; i < 400; i++) node = field(1, Buffer.concat([field(3, Buffer.from('n')), field(5, node)]));
    expect(() => fastDecode('aapt.pb.XmlNode', node)).to.throw(/nesting depth/);
  });
});
