/**
 * Feature modules and asset packs from a split set: the test writes a bundle itself the way AGP
 * does (a corpus APK as base through `aapt2 convert`, a feature module and two asset packs whose
 * manifests `aapt2 link --proto-format` compiles), `bundletool build-bundle` makes it, and
 * `build-apks` cuts it into splits. The .apks converted back must be a bundle bundletool accepts,
 * with the same modules and deliveries, that bundletool serves as the same splits: every master
 * split's manifest, every resource value and every entry's bytes.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { convertApk } from '../src/index.js';
import { requireCorpusApk } from './helpers/corpus.js';
import { requireOracles } from './helpers/oracles.js';
import { compareDeviceSets } from './oracle/deviceSets.js';
import { buildApkSet } from './oracle/splitSets.js';
import { bundletool, googleModule, run, validateBundle } from './oracle/tools.js';
import { ZipArchive, ZipWriter } from './oracle/zip.js';

const DIST = 'http://schemas.android.com/apk/distribution';
const ANDROID = 'http://schemas.android.com/apk/res/android';

/** A module's manifest; a feature carries the app's versionCode, an asset pack must not. */
function moduleManifest(pkg: string, split: string, dist: string, application = ''): string {
  const versionCode = application ? ' android:versionCode="1"' : '';
  return `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="${ANDROID}" xmlns:dist="${DIST}" package="${pkg}" split="${split}"${versionCode}>
  ${dist}
  ${application ? '<uses-sdk android:minSdkVersion="26"/>' : ''}
  ${application}
</manifest>
`;
}

/** A module zip: its manifest compiled to proto by aapt2, plus the given files as they are. */
async function moduleZip(o: { aapt2: string; frameworkRes: string }, dir: string, name: string, manifest: string, files: Record<string, Buffer>, baseApk?: string): Promise<string> {
  const src = join(dir, name);
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'AndroidManifest.xml'), manifest);
  const linked = join(src, 'linked.apk');
  // A feature's manifest names the base's resources (its title): linked against the base APK too.
  await run(o.aapt2, ['link', '--proto-format', '--manifest', join(src, 'AndroidManifest.xml'), '-I', o.frameworkRes, ...(baseApk ? ['-I', baseApk] : []), '-o', linked]);
  const out = join(dir, `${name}.zip`);
  const w = new ZipWriter(out);
  const linkedZip = ZipArchive.open(linked);
  for (const e of linkedZip.entries) {
    if (e.name === 'AndroidManifest.xml') w.addRaw('manifest/AndroidManifest.xml', e.method, e.crc, linkedZip.raw(e), e.size);
  }
  for (const [path, bytes] of Object.entries(files)) w.add(path, bytes, { method: 'store' });
  w.close();
  return out;
}

function setSplits(apks: string, dir: string): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const zip = ZipArchive.open(apks);
  for (const e of zip.entries) {
    if (!/^(splits|asset-slices)\/.+\.apk$/.test(e.name)) continue;
    writeFileSync(join(dir, e.name.replace('/', '__')), zip.read(e));
  }
  return readdirSync(dir).sort().map((f) => join(dir, f));
}

describe('feature modules and asset packs: a bundle written here -> bundletool splits -> convertApk', function () {
  this.timeout(180_000);
  let work = '';
  after(() => work && process.env.AABIFY_KEEP_ARTIFACTS !== '1' && rmSync(work, { recursive: true, force: true }));

  it('convertApk_apksWithFeatureAndAssetPacks_sameModulesDeliveriesAndSplits', async function () {
    const o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2', 'frameworkRes');
    const apk = requireCorpusApk(this, 'jx-small');
    work = mkdtempSync(join(tmpdir(), 'aabify-modules-'));
    const pkg = apk.packageName;
    const base = await googleModule(o, apk.path, join(work, 'base.zip'), join(work, 'base'));
    const feature = await moduleZip(
      o,
      work,
      'feature1',
      moduleManifest(
        pkg,
        'feature1',
        // On demand, so bundletool keeps it a split of its own (install-time features are merged into the base).
        `<dist:module dist:instant="false" dist:title="@string/app_name"><dist:delivery><dist:on-demand/></dist:delivery><dist:fusing dist:include="true"/></dist:module>`,
        '<application android:hasCode="false"/>',
      ),
      { 'assets/feature1/hello.txt': Buffer.from('feature asset\n') },
      apk.path,
    );
    const installPack = await moduleZip(
      o,
      work,
      'levels',
      moduleManifest(pkg, 'levels', `<dist:module dist:type="asset-pack"><dist:fusing dist:include="true"/><dist:delivery><dist:install-time/></dist:delivery></dist:module>`),
      { 'assets/levels/level1.bin': randomBytes(64 * 1024), 'assets/levels/level2.bin': randomBytes(1000) },
    );
    const onDemandPack = await moduleZip(
      o,
      work,
      'extras',
      moduleManifest(pkg, 'extras', `<dist:module dist:type="asset-pack"><dist:fusing dist:include="true"/><dist:delivery><dist:on-demand/></dist:delivery></dist:module>`),
      { 'assets/extras/movie.bin': randomBytes(32 * 1024) },
    );
    const original = join(work, 'original.aab');
    await bundletool(o, ['build-bundle', `--modules=${[base, feature, installPack, onDemandPack].join(',')}`, `--output=${original}`]);
    const setA = await buildApkSet(o, original, join(work, 'a.apks'));

    const ours = join(work, 'ours.aab');
    const report = await convertApk(setA, ours);
    await validateBundle(o, ours);
    expect(report.modules.map((m) => [m.name, m.kind, m.delivery ?? ''])).to.deep.equal([
      ['base', 'base', ''],
      ['feature1', 'feature', ''],
      ['extras', 'asset-pack', 'as-declared'],
      ['levels', 'asset-pack', 'as-declared'],
    ]);
    expect(report.splits.filter((s) => s.role === 'master').map((s) => s.module).sort()).to.deep.equal(['base', 'extras', 'feature1', 'levels']);

    const setB = await buildApkSet(o, ours, join(work, 'b.apks'));
    const a = setSplits(setA, join(work, 'splits-a'));
    const b = setSplits(setB, join(work, 'splits-b'));
    expect(b.map((p) => p.slice(p.lastIndexOf('/') + 1))).to.deep.equal(a.map((p) => p.slice(p.lastIndexOf('/') + 1)));
    expect(await compareDeviceSets(o.aapt2, a, b)).to.deep.equal([]);
  });
});
