/**
 * Split inputs and asset packs, on small hand-made APKs: containers recognised by content, the
 * coded refusals (different apps, no base, an encrypted .apkm, splits that disagree), OBB files
 * and globs moved into asset packs, and what the report says about them.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { convertApk, validateBundle, type ConversionReport } from '../src/index.js';
import { ZipReader } from '../src/zip/index.js';
import { TempDir, buildZip, tinyApkEntries, tinyManifest, type BuildEntry } from './helpers/zipBuilder.js';

async function expectCode(p: Promise<unknown>, code: string): Promise<void> {
  try {
    await p;
  } catch (e) {
    expect((e as { code?: string }).code).to.equal(code);
    return;
  }
  expect.fail(`expected ${code}`);
}

/** A configuration split as bundletool makes it: manifest with split=, nothing else but its files. */
function configSplit(split: string, files: BuildEntry[], m: { versionCode?: number; packageName?: string } = {}): Buffer {
  return buildZip([{ name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: m.versionCode ?? 1, split, packageName: m.packageName }) }, ...files]);
}

describe('split inputs and asset packs', function () {
  this.timeout(60_000);
  let tmp: TempDir;
  before(() => {
    tmp = new TempDir();
  });
  after(() => tmp.cleanup());

  const base = (): Buffer => buildZip(tinyApkEntries());
  const abiSplit = (): Buffer => configSplit('config.x86_64', [{ name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 9), method: 0 }]);

  it('convertApk_severalApkFiles_libsOfTheAbiSplitMergedIntoBase', async () => {
    const out = tmp.file('files.aab');
    const report = await convertApk([tmp.file('base.apk', base()), tmp.file('abi.apk', abiSplit())], out);
    expect(report.container).to.equal('files');
    expect(report.abis).to.deep.equal(['arm64-v8a', 'x86_64']);
    expect(report.splits.map((s) => `${s.source}:${s.module}:${s.role}`)).to.deep.equal(['base.apk:base:master', 'abi.apk:base:config.x86_64']);
    expect(report.modules.map((m) => [m.name, m.kind])).to.deep.equal([['base', 'base']]);
    const r = await ZipReader.open(out);
    expect(r.get('base/lib/x86_64/libfoo.so')).to.not.equal(undefined);
    await r.close();
    expect(await validateBundle(out)).to.deep.equal([]);
  });

  it('convertApk_zipOfApksAndXapkAndApks_recognisedByContentSameBundle', async () => {
    const apks: BuildEntry[] = [
      { name: 'base.apk', data: base(), method: 0 },
      { name: 'split_config.x86_64.apk', data: abiSplit(), method: 8 },
    ];
    const plain = tmp.file('set.bin', buildZip(apks));
    const xapk = tmp.file('set.xapk', buildZip([{ name: 'manifest.json', data: '{"package_name":"com.example.tiny"}' }, ...apks]));
    const apkm = tmp.file('set.apkm', buildZip([{ name: 'info.json', data: '{"pname":"com.example.tiny"}' }, ...apks]));
    const toc = tmp.file('set.apks', buildZip([{ name: 'toc.pb', data: 'toc' }, ...apks.map((a) => ({ ...a, name: `splits/${a.name}` })), { name: 'standalones/standalone-x86_64.apk', data: base(), method: 0 }]));
    const kinds: string[] = [];
    const bytes: string[] = [];
    for (const [i, input] of [plain, xapk, apkm, toc].entries()) {
      const out = tmp.file(`set-${i}.aab`);
      const report = await convertApk(input, out);
      kinds.push(report.container);
      bytes.push((await import('node:fs')).readFileSync(out).toString('base64'));
      expect(report.abis).to.deep.equal(['arm64-v8a', 'x86_64']);
    }
    expect(kinds).to.deep.equal(['zip', 'xapk', 'apkm', 'apks']);
    expect(new Set(bytes).size, 'one bundle whatever the container').to.equal(1);
  });

  it('convertApk_splitsOfAnotherPackage_splitMismatch', async () => {
    const other = configSplit('config.x86_64', [], { packageName: 'com.example.other' });
    await expectCode(convertApk([tmp.file('b1.apk', base()), tmp.file('o.apk', other)], tmp.file('m1.aab')), 'SPLIT_MISMATCH');
    expect(existsSync(tmp.file('m1.aab'))).to.equal(false);
  });

  it('convertApk_splitOfAnotherVersionCode_splitMismatch', async () => {
    const other = configSplit('config.x86_64', [], { versionCode: 2 });
    await expectCode(convertApk([tmp.file('b2.apk', base()), tmp.file('v.apk', other)], tmp.file('m2.aab')), 'SPLIT_MISMATCH');
  });

  it('convertApk_onlyConfigSplits_missingBaseSplit', async () => {
    const density = configSplit('config.xxhdpi', []);
    await expectCode(convertApk([tmp.file('a1.apk', abiSplit()), tmp.file('d1.apk', density)], tmp.file('m3.aab')), 'MISSING_BASE_SPLIT');
  });

  it('convertApk_sameSplitTwiceDifferentContent_splitConflict', async () => {
    const other = configSplit('config.x86_64', [{ name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 1), method: 0 }]);
    await expectCode(convertApk([tmp.file('b4.apk', base()), tmp.file('a4.apk', abiSplit()), tmp.file('a5.apk', other)], tmp.file('m4.aab')), 'SPLIT_CONFLICT');
  });

  it('convertApk_sameSplitTwiceIdentical_keptOnceListedAsDuplicate', async () => {
    const report = await convertApk([tmp.file('b6.apk', base()), tmp.file('a6.apk', abiSplit()), tmp.file('a7.apk', abiSplit())], tmp.file('m6.aab'));
    expect(report.splits.filter((s) => s.role === 'duplicate').map((s) => s.source)).to.deep.equal(['a7.apk']);
  });

  it('convertApk_encryptedApkm_encryptedApkmInPtBr', async () => {
    const header = Buffer.alloc(66);
    header[0] = 1;
    header[1] = 2; // argon2id
    header.writeBigUInt64LE(3n, 2);
    header.writeBigUInt64LE(1n << 28n, 10);
    header.writeBigUInt64LE(1n << 16n, 18);
    const file = tmp.file('app.apkm', Buffer.concat([header, randomBytes(4096)]));
    try {
      await convertApk(file, tmp.file('e.aab'));
      expect.fail('expected ENCRYPTED_APKM');
    } catch (e) {
      expect((e as { code?: string }).code).to.equal('ENCRYPTED_APKM');
      expect((e as Error).message).to.contain('criptografado');
    }
  });

  it('convertApk_zipWithoutApks_notAnApkContainer', async () => {
    await expectCode(convertApk(tmp.file('docs.zip', buildZip([{ name: 'readme.txt', data: 'hi' }])), tmp.file('n.aab')), 'NOT_AN_APK_CONTAINER');
  });

  it('convertApk_obbBesideApk_installTimePackStoredWithPathWarning', async () => {
    const obb = tmp.file('main.1.com.example.tiny.obb', randomBytes(300_000));
    const out = tmp.file('obb.aab');
    const report: ConversionReport = await convertApk(tmp.file('b8.apk', base()), out, { obb: [obb] });
    const pack = report.modules.find((m) => m.name === 'obb_main');
    expect(pack).to.include({ kind: 'asset-pack', delivery: 'install-time' });
    expect(pack!.sizeBytes).to.be.greaterThan(300_000);
    expect(report.warnings.map((w) => w.code)).to.include('OBB_READ_BY_PATH');
    expect(report.warnings.find((w) => w.code === 'OBB_READ_BY_PATH')!.message).to.contain('https://developer.android.com/guide/playcore/asset-delivery');
    const r = await ZipReader.open(out);
    const entry = r.get('obb_main/assets/main.1.com.example.tiny.obb')!;
    expect(entry.method, 'stored, so openFd works').to.equal(0);
    expect(Buffer.from(await r.read(entry)).equals((await import('node:fs')).readFileSync(obb))).to.equal(true);
    await r.close();
    expect(await validateBundle(out)).to.deep.equal([]);
  });

  it('convertApk_obbOnDemand_packManifestSaysOnDemandAndApiWarning', async () => {
    const obb = tmp.file('patch.1.com.example.tiny.obb', randomBytes(1000));
    const report = await convertApk([tmp.file('b9.apk', base()), obb], tmp.file('od.aab'), { assetDelivery: 'on-demand' });
    expect(report.modules.find((m) => m.name === 'obb_patch')).to.include({ delivery: 'on-demand' });
    expect(report.warnings.map((w) => w.code)).to.include('ASSET_PACK_NEEDS_API');
  });

  it('convertApk_assetPackGlob_matchingAssetsLeaveTheBase', async () => {
    const out = tmp.file('glob.aab');
    const report = await convertApk(tmp.file('b10.apk', base()), out, { assetPacks: [{ name: 'sounds', glob: '*.mp3', delivery: 'fast-follow' }] });
    const r = await ZipReader.open(out);
    expect(r.get('base/assets/sound.mp3')).to.equal(undefined);
    expect(r.get('sounds/assets/sound.mp3')).to.not.equal(undefined);
    expect(r.get('base/assets/data/x.json'), 'not matched: stays').to.not.equal(undefined);
    await r.close();
    expect(report.modules.map((m) => [m.name, m.kind, m.delivery])).to.deep.equal([['base', 'base', undefined], ['sounds', 'asset-pack', 'fast-follow']]);
    expect(await validateBundle(out)).to.deep.equal([]);
  });

  it('convertApk_badAssetPackName_invalidOptions', async () => {
    await expectCode(convertApk(tmp.file('b11.apk', base()), tmp.file('bad.aab'), { assetPacks: [{ name: '1pack', glob: '**' }] }), 'INVALID_OPTIONS');
    await expectCode(convertApk(tmp.file('b12.apk', base()), tmp.file('bad2.aab'), { assetPacks: [{ name: 'base', glob: '**' }] }), 'INVALID_OPTIONS');
    await expectCode(convertApk(tmp.file('b13.apk', base()), tmp.file('bad3.aab'), { assetDelivery: 'later' as never }), 'INVALID_OPTIONS');
  });

  it('convertApk_baseOverPlayLimit_reportsFigureAndFlag', async () => {
    // 201 MiB of incompressible assets, stored: the base is over Play's 200 MB.
    const big = tmp.file('big.apk');
    const { ZipWriter } = await import('./oracle/zip.js');
    const w = new ZipWriter(big);
    for (const e of tinyApkEntries()) if (!e.name.endsWith('/')) w.add(e.name, Buffer.from(typeof e.data === 'string' ? e.data : (e.data ?? '')), { method: e.method === 0 ? 'store' : 'deflate' });
    const chunk = randomBytes(8 * 1024 * 1024);
    for (let i = 0; i < 26; i++) w.add(`assets/big/part${i}.bin`, chunk, { method: 'store' });
    w.close();
    const report = await convertApk(big, tmp.file('big.aab'));
    const over = report.warnings.find((w2) => w2.code === 'BASE_MODULE_TOO_LARGE');
    expect(over?.message).to.match(/^O módulo base tem 208(,\d)? MB comprimidos \(\d+ bytes\), acima do limite de 200 MB do Google Play: mova .* --asset-pack NOME=GLOB/);
    const fixed = await convertApk(big, tmp.file('big-fixed.aab'), { assetPacks: [{ name: 'big', glob: 'big/**' }] });
    expect(fixed.warnings.map((w2) => w2.code)).to.not.include('BASE_MODULE_TOO_LARGE');
    expect(fixed.modules.find((m) => m.name === 'base')!.sizeBytes).to.be.lessThan(1024 * 1024);
    writeFileSync(tmp.file('big.apk'), ''); // free the disk early
  });
});
