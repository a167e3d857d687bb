/**
 * buildApks on small bundles made here: what the universal APK holds and how (stored entries
 * aligned, native libraries 16 KiB-aligned when not extracted, bundletool's injected resource
 * and meta-data), signing with the caller's key or a test key, and the coded errors of bad
 * input, bad options and hostile bundles. The corpus and Google's tools judge fidelity in
 * apksFidelity.test.ts.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { buildApks, convertApk, ConverterError, generateUploadKeystore, parseDeviceSpec, type ApksReport, type ConverterErrorCode } from '../src/index.js';
import { encodeAapt, type PbXmlNode } from '../src/proto/aapt.js';
import { encodeMessage } from '../src/proto/bundle.js';
import { ZipReader } from '../src/zip/index.js';
import { requireOracles } from './helpers/oracles.js';
import { buildZip, TempDir, tinyApkEntries, type BuildEntry } from './helpers/zipBuilder.js';
import { apksignerVerify } from './oracle/apksCompare.js';
import { bundletool, dumpXmlTree } from './oracle/tools.js';

async function expectCode(p: Promise<unknown>, code: ConverterErrorCode): Promise<ConverterError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(ConverterError);
    expect((e as ConverterError).code, (e as ConverterError).detail).to.equal(code);
    return e as ConverterError;
  }
  throw new Error(`expected ${code}, nothing thrown`);
}

const ANDROID = 'http://schemas.android.com/apk/res/android';

/** A bundle's manifest as proto: package, versionCode, minSdk, and optionally extractNativeLibs. */
function manifest(o: { minSdk?: number; extractNativeLibs?: boolean } = {}): PbXmlNode {
  const app = o.extractNativeLibs === undefined ? [] : [{ namespace_uri: ANDROID, name: 'extractNativeLibs', resource_id: 0x010104ea, compiled_item: { prim: { boolean_value: o.extractNativeLibs } } }];
  return {
    element: {
      namespace_declaration: [{ prefix: 'android', uri: ANDROID, source: {} }],
      name: 'manifest',
      attribute: [
        { name: 'package', value: 'com.example.made' },
        { namespace_uri: ANDROID, name: 'versionCode', resource_id: 0x0101021b, value: '7', compiled_item: { prim: { int_decimal_value: 7 } } },
      ],
      child: [
        { element: { name: 'uses-sdk', attribute: [{ namespace_uri: ANDROID, name: 'minSdkVersion', resource_id: 0x0101020c, value: String(o.minSdk ?? 26), compiled_item: { prim: { int_decimal_value: o.minSdk ?? 26 } } }], child: [] }, source: { line_number: 2 } },
        { element: { name: 'application', attribute: [{ namespace_uri: ANDROID, name: 'hasCode', resource_id: 0x0101000c, compiled_item: { prim: { boolean_value: false } } }, ...app], child: [] }, source: { line_number: 3 } },
      ],
    },
    source: { line_number: 1 },
  };
}

/** A one-module bundle zip: BundleConfig.pb, the base manifest, and `files` under base/. */
function bundle(files: BuildEntry[], o: { minSdk?: number; extractNativeLibs?: boolean; globs?: string[]; version?: string } = {}): Buffer {
  return buildZip([
    { name: 'BundleConfig.pb', data: encodeMessage('BundleConfig', { bundletool: { version: o.version ?? '1.18.1' }, ...(o.globs ? { compression: { uncompressed_glob: o.globs } } : {}) }) },
    { name: 'base/manifest/AndroidManifest.xml', data: encodeAapt('XmlNode', manifest(o)) },
    ...files,
  ]);
}

/** Where each stored entry's data starts, by the engine's own reader. */
async function storedOffsets(apk: string): Promise<Map<string, number>> {
  const r = await ZipReader.open(apk);
  try {
    const out = new Map<string, number>();
    for (const e of r.entries) if (e.method === 0) out.set(e.name, await r.dataOffset(e));
    return out;
  } finally {
    await r.close();
  }
}

describe('buildApks', function () {
  this.timeout(60_000);
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  it('buildApks_convertedTinyApk_universalApkHoldsTheAppAndBundletoolsAdditions', async () => {
    const aab = tmp.file('tiny.aab');
    await convertApk(tmp.file('tiny.apk', buildZip(tinyApkEntries())), aab);
    const out = tmp.file('tiny.apk.out');
    const report = await buildApks(aab, out);
    const r = await ZipReader.open(out);
    const names = r.entries.map((e) => e.name);
    await r.close();
    expect(names).to.include.members([
      'AndroidManifest.xml',
      'resources.arsc',
      'classes.dex',
      'res/layout/main.xml',
      'res/xml/splits0.xml',
      'assets/sound.mp3',
      'assets/data/x.json',
      'lib/arm64-v8a/libfoo.so',
      'META-INF/services/com.example.Service',
      'kotlin/collections/x.kotlin_builtins',
    ]);
    // minSdk 21: signed v1 too, with SHA-256 (Android 4.3+ reads it).
    expect(names).to.include.members(['META-INF/MANIFEST.MF', 'META-INF/AABIFY-T.SF', 'META-INF/AABIFY-T.RSA']);
    expect(report).to.include({ mode: 'universal', packageName: 'com.example.tiny', versionCode: 1, minSdk: 21, output: out });
    expect(report.modules).to.deep.equal(['base']);
    expect(report.signature.schemes).to.deep.equal(['v1', 'v2', 'v3']);
    expect(report.signature.v1Algorithm).to.equal('SHA256withRSA');
    expect(report.signature.testKey).to.equal(true);
    expect(report.signature.subject).to.contain('NOT FOR GOOGLE PLAY');
    expect(report.warnings.map((w) => w.code)).to.include('TEST_KEY_SIGNED');
    expect(report.sizeOut).to.equal(readFileSync(out).length);
    expect(existsSync(`${out}.partial`)).to.equal(false);
  });

  it('buildApks_storedEntries_alignedTo4AndNativeLibrariesTo16k', async () => {
    const aab = tmp.file('a.aab', bundle([
      { name: 'base/assets/a.bin', data: Buffer.alloc(3, 1), method: 0 },
      { name: 'base/assets/b.bin', data: Buffer.alloc(5, 2), method: 0 },
      { name: 'base/lib/arm64-v8a/liba.so', data: Buffer.alloc(7000, 3) },
      { name: 'base/lib/x86_64/libb.so', data: Buffer.alloc(9000, 4) },
    ], { extractNativeLibs: false, globs: ['assets/**'] }));
    const out = tmp.file('a.apk');
    await buildApks(aab, out);
    const offsets = await storedOffsets(out);
    expect([...offsets.keys()]).to.include.members(['assets/a.bin', 'assets/b.bin', 'lib/arm64-v8a/liba.so', 'lib/x86_64/libb.so']);
    for (const [name, at] of offsets) expect(at % (name.endsWith('.so') ? 16384 : 4), name).to.equal(0);
  });

  it('buildApks_extractNativeLibsAbsent_librariesDeflatedAsBundletoolDoes', async () => {
    const aab = tmp.file('a.aab', bundle([{ name: 'base/lib/arm64-v8a/liba.so', data: Buffer.alloc(7000, 3), method: 0 }]));
    const out = tmp.file('a.apk');
    await buildApks(aab, out);
    expect((await storedOffsets(out)).has('lib/arm64-v8a/liba.so')).to.equal(false);
  });

  it('buildApks_olderBundletoolVersion_nativeLibrariesAlignedTo4k', async () => {
    const aab = tmp.file('a.aab', bundle([{ name: 'base/lib/arm64-v8a/liba.so', data: Buffer.alloc(7000, 3) }], { extractNativeLibs: false, version: '1.15.0' }));
    const out = tmp.file('a.apk');
    await buildApks(aab, out);
    const at = (await storedOffsets(out)).get('lib/arm64-v8a/liba.so') ?? -1;
    expect(at % 4096).to.equal(0);
    expect(at % 16384).to.not.equal(0);
  });

  it('buildApks_ownKeystore_signsWithItNotATestKey', async () => {
    const ks = generateUploadKeystore({ password: 'secret123', alias: 'release', dname: 'CN=Ana Souza, O=Empresa, C=BR' });
    const aab = tmp.file('a.aab', bundle([]));
    const out = tmp.file('a.apk');
    const report = await buildApks(aab, out, { sign: { keystore: ks.keystore, storePassword: 'secret123' } });
    expect(report.signature).to.include({ alias: 'release', testKey: false, certificateSha256: ks.sha256 });
    expect(report.signature.schemes).to.deep.equal(['v2', 'v3']);
    expect(report.warnings.map((w) => w.code)).to.not.include('TEST_KEY_SIGNED');
    // Same key, same bundle: the same bytes (RSA PKCS#1 v1.5 signatures are deterministic).
    const again = tmp.file('b.apk');
    await buildApks(aab, again, { sign: { keystore: ks.keystore, storePassword: 'secret123' } });
    expect(readFileSync(again).equals(readFileSync(out))).to.equal(true);
  });

  it('buildApks_minSdkBelow18_v1SignedWithSha1', async () => {
    const aab = tmp.file('a.aab', bundle([], { minSdk: 15 }));
    const report = await buildApks(aab, tmp.file('a.apk'));
    expect(report.signature.v1Algorithm).to.equal('SHA1withRSA');
  });

  it('buildApks_apksignerVerify_v1v2v3True', async function () {
    const o = requireOracles(this, 'apksigner', 'aapt2');
    const aab = tmp.file('tiny.aab');
    await convertApk(tmp.file('tiny.apk', buildZip(tinyApkEntries())), aab);
    const out = tmp.file('u.apk');
    await buildApks(aab, out);
    const v = await apksignerVerify(o.apksigner, out);
    expect(v, v.output).to.include({ verifies: true, v1: true, v2: true, v3: true });
    expect(v.output).to.contain('NOT FOR GOOGLE PLAY');
    const meta = (await dumpXmlTree(o.aapt2, out, 'AndroidManifest.xml')).join('\n');
    expect(meta).to.contain('"com.android.dynamic.apk.fused.modules"');
    expect(meta).to.contain('"com.android.vending.splits"');
  });

  describe('device sets', () => {
    const phone = { supportedAbis: ['arm64-v8a', 'armeabi-v7a'], supportedLocales: ['pt-BR'], screenDensity: 480, sdkVersion: 30 };

    it('buildApks_deviceMode_splitsTheDevicePicks_eachSignedForItsOwnManifest', async function () {
      const aab = tmp.file('tiny.aab');
      await convertApk(tmp.file('tiny.apk', buildZip(tinyApkEntries())), aab);
      const out = tmp.file('tiny.apks');
      const report = await buildApks(aab, out, { mode: 'device', deviceSpec: phone });
      expect(report.mode).to.equal('device');
      expect(report.deviceSpec).to.deep.equal(phone);
      const r = await ZipReader.open(out);
      const names = r.entries.map((e) => e.name);
      const files = new Map<string, Buffer>();
      for (const e of r.entries) files.set(e.name, await r.read(e));
      await r.close();
      expect(names).to.include.members(['splits/base-master.apk', 'splits/base-arm64_v8a.apk']);
      expect(names.some((n) => n.includes('x86'))).to.equal(false);
      expect(report.apks.map((a) => a.path).sort()).to.deep.equal(names.filter((n) => n !== 'toc.pb').sort());
      expect(names[0], 'the table of contents first').to.equal('toc.pb');
      const o = requireOracles(this, 'apksigner', 'java', 'bundletoolJar');
      // bundletool reads our table of contents and picks the same APKs for the device.
      const spec = tmp.file('spec.json', Buffer.from(JSON.stringify(phone)));
      const extracted = tmp.file('extracted');
      await bundletool(o, ['extract-apks', `--apks=${out}`, `--device-spec=${spec}`, `--output-dir=${extracted}`]);
      expect(readdirSync(extracted).sort()).to.deep.equal(names.filter((n) => n.endsWith('.apk')).map((n) => n.slice(n.lastIndexOf('/') + 1)).sort());
      for (const [name, data] of files) {
        if (name === 'toc.pb') continue;
        const apk = tmp.file(name.replace(/\//g, '_'), data);
        const v = await apksignerVerify(o.apksigner, apk);
        expect(v.verifies, `${name}\n${v.output}`).to.equal(true);
        // A config split declares no minSdk: signed v1 too, with SHA-1, as bundletool signs it.
        if (name !== 'splits/base-master.apk') expect(v.v1, name).to.equal(true);
      }
    });

    it('buildApks_deviceBelowTheAppsMinSdk_DEVICE_INCOMPATIBLE', async () => {
      const aab = tmp.file('a.aab', bundle([], { minSdk: 26 }));
      const e = await expectCode(buildApks(aab, tmp.file('a.apks'), { mode: 'device', deviceSpec: { ...phone, sdkVersion: 24 } }), 'DEVICE_INCOMPATIBLE');
      expect(e.detail).to.contain('API 24');
      expect(existsSync(tmp.file('a.apks'))).to.equal(false);
    });

    it('buildApks_deviceWithoutTheAppsAbi_DEVICE_INCOMPATIBLE', async () => {
      const aab = tmp.file('tiny.aab');
      await convertApk(tmp.file('tiny.apk', buildZip(tinyApkEntries())), aab);
      const e = await expectCode(buildApks(aab, tmp.file('a.apks'), { mode: 'device', deviceSpec: { ...phone, supportedAbis: ['x86_64', 'x86'] } }), 'DEVICE_INCOMPATIBLE');
      expect(e.detail).to.contain('arm64-v8a');
    });

    it('parseDeviceSpec_badJsonOrFields_INVALID_DEVICE_SPEC', () => {
      for (const text of ['{', '[]', JSON.stringify({ ...phone, sdkVersion: 0 }), JSON.stringify({ ...phone, supportedAbis: [] }), JSON.stringify({ ...phone, screenDensity: 'xxhdpi' }), 'x'.repeat(70_000)]) {
        let code: string | undefined;
        try {
          parseDeviceSpec(text);
        } catch (e) {
          code = (e as ConverterError).code;
        }
        expect(code, text.slice(0, 60)).to.equal('INVALID_DEVICE_SPEC');
      }
      expect(parseDeviceSpec(JSON.stringify(phone))).to.deep.equal(phone);
    });
  });

  describe('bad input and options', () => {
    const build = (aab: string): Promise<ApksReport> => buildApks(aab, tmp.file('out.apk'));

    it('buildApks_notAZip_NOT_A_ZIPSaidOfAnAab', async () => {
      const e = await expectCode(build(tmp.file('x.aab', Buffer.from('not a zip at all, just text'))), 'NOT_A_ZIP');
      expect(e.message).to.equal('O arquivo não é um AAB válido (não é um arquivo ZIP).');
    });

    it('buildApks_anApk_NOT_AN_AAB', async () => {
      await expectCode(build(tmp.file('x.aab', buildZip(tinyApkEntries()))), 'NOT_AN_AAB');
    });

    it('buildApks_manifestNotAProto_INVALID_AAB', async () => {
      const aab = buildZip([
        { name: 'BundleConfig.pb', data: encodeMessage('BundleConfig', { bundletool: { version: '1.18.1' } }) },
        { name: 'base/manifest/AndroidManifest.xml', data: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]) },
      ]);
      await expectCode(build(tmp.file('x.aab', aab)), 'INVALID_AAB');
    });

    it('buildApks_bundleBreakingARule_INVALID_AABNamesTheRule', async () => {
      const e = await expectCode(build(tmp.file('x.aab', bundle([{ name: 'base/dex/notdex.txt', data: 'x' }]))), 'INVALID_AAB');
      expect(e.detail).to.match(/^\[/);
    });

    it('buildApks_badVersionString_INVALID_AAB', async () => {
      await expectCode(build(tmp.file('x.aab', bundle([], { version: 'latest' }))), 'INVALID_AAB');
    });

    it('buildApks_zipBombEntry_SUSPICIOUS_COMPRESSION', async () => {
      const zeros = Buffer.alloc(64 * 1024 * 1024);
      const e = await expectCode(build(tmp.file('x.aab', bundle([{ name: 'base/assets/zeros.bin', data: zeros }]))), 'SUSPICIOUS_COMPRESSION');
      expect(e.message).to.contain('AAB');
    });

    it('buildApks_deeplyNestedXml_INVALID_AAB', async () => {
      // Encoded by hand: the engine's own encoder refuses to nest this deep.
      const field = (tag: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([(tag << 3) | 2]), varint(body.length), body]);
      const varint = (n: number): Buffer => {
        const out: number[] = [];
        for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
        out.push(n);
        return Buffer.from(out);
      };
      let node = field(1, field(3, Buffer.from('leaf')));
      for (let i = 0; i < 400; i++) node = field(1, Buffer.concat([field(3, Buffer.from('n')), field(5, node)]));
      const table = {
        package: [{ package_id: { id: 0x7f }, package_name: 'com.example.made', type: [{ type_id: { id: 1 }, name: 'xml', entry: [{ entry_id: {}, name: 'deep', visibility: {}, config_value: [{ config: {}, value: { item: { file: { path: 'res/xml/deep.xml', type: 3 } } } }] }] }] }],
      };
      const aab = bundle([
        { name: 'base/resources.pb', data: encodeAapt('ResourceTable', table) },
        { name: 'base/res/xml/deep.xml', data: node },
      ]);
      // Past protobuf's recursion limit (100 messages, as in the C++ parser bundletool's aapt2 uses).
      const e = await expectCode(build(tmp.file('x.aab', aab)), 'INVALID_AAB');
      expect(e.detail).to.contain('res/xml/deep.xml');
    });

    it('buildApks_outputExists_OUTPUT_EXISTSUnlessOverwrite', async () => {
      const aab = tmp.file('a.aab', bundle([]));
      const out = tmp.file('a.apk', Buffer.from('keep me'));
      await expectCode(buildApks(aab, out), 'OUTPUT_EXISTS');
      expect(readFileSync(out, 'utf8')).to.equal('keep me');
      await buildApks(aab, out, { overwrite: true });
      expect(readFileSync(out).readUInt32LE(0)).to.equal(0x04034b50);
    });

    it('buildApks_overwriteWithABundleItRefuses_oldOutputKept', async () => {
      const out = tmp.file('kept.apk', Buffer.from('keep me'));
      await expectCode(buildApks(tmp.file('bad.aab', Buffer.from('not a zip at all, just text')), out, { overwrite: true }), 'NOT_A_ZIP');
      const noBase = tmp.file('nobase.aab', buildZip([{ name: 'BundleConfig.pb', data: Buffer.alloc(0) }]));
      await expectCode(buildApks(noBase, out, { overwrite: true }), 'NOT_AN_AAB');
      expect(readFileSync(out, 'utf8')).to.equal('keep me');
    });

    it('buildApks_aborted_ABORTEDAndNoFile', async () => {
      const aab = tmp.file('a.aab', bundle([]));
      const out = tmp.file('a.apk');
      const controller = new AbortController();
      controller.abort();
      await expectCode(buildApks(aab, out, { signal: controller.signal }), 'ABORTED');
      expect(existsSync(out) || existsSync(`${out}.partial`)).to.equal(false);
    });

    it('buildApks_wrongKeystorePassword_failsBeforeReadingTheBundle', async () => {
      const ks = generateUploadKeystore({ password: 'secret123' });
      writeFileSync(tmp.file('ks.p12'), ks.keystore);
      await expectCode(buildApks(tmp.file('missing.aab'), tmp.file('a.apk'), { sign: { keystore: tmp.file('ks.p12'), storePassword: 'wrong-pass' } }), 'KEYSTORE_PASSWORD');
    });

    it('buildApks_sameInputAndOutput_INVALID_OPTIONS', async () => {
      const aab = tmp.file('a.aab', bundle([]));
      await expectCode(buildApks(aab, aab), 'INVALID_OPTIONS');
    });
  });
});
