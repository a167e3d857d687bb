/**
 * Split sets of apps whose native libraries are stored and page-aligned, with
 * android:extractNativeLibs="false" (the Android Gradle plugin's default packaging), against
 * Google's bundletool: the app → convertApk → bundle A → `build-apks` → A.apks; the .apks, and the
 * same splits as an .xapk, → convertApk → bundle B. B's universal APK must be A's: the manifest
 * keeps extractNativeLibs="false" and the libraries stay stored (test/oracle/roundTrip.ts).
 *
 * Every corpus app with native libraries takes part: as it is when its libraries are stored
 * already, otherwise rebuilt so (test/oracle/storedLibraries.ts, with Google's aapt2); and two apps
 * linked by aapt2 here, one for Android 7+ and one for Android 5+ (whose .apks holds a variant per
 * Android range, the oldest saying extractNativeLibs="true" over libraries it still stores).
 *
 * What a split set cannot tell: an app that stored its libraries without declaring the attribute
 * gets the same splits from bundletool (for Android 6+ only); its rebuilt bundle declares "false",
 * and its universal APK stores the libraries its original deflated (docs/split-inputs.md).
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertApk } from '../src/index.js';
import { listCorpus, requireCorpus } from './helpers/corpus.js';
import { elfLibrary } from './helpers/elf.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { buildAapt2Apk } from './oracle/aapt2Fixture.js';
import { compareRoundTrip } from './oracle/roundTrip.js';
import { buildApkSet, splitApks, writeXapk } from './oracle/splitSets.js';
import { hasNativeLibraries, nativeLibrariesStored, withStoredNativeLibraries } from './oracle/storedLibraries.js';
import { buildUniversalApk } from './oracle/tools.js';
import { ZipArchive } from './oracle/zip.js';

type StoredOracles = Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2' | 'protoc' | 'frameworkRes'>;

/** Problems of the universal APKs of B (from the .apks, then from the .xapk) against A's. */
async function storedRoundTrip(o: StoredOracles, apk: string, packageName: string, dir: string): Promise<{ problems: string[]; storedInA: string[] }> {
  mkdirSync(dir, { recursive: true });
  const aabA = join(dir, 'a.aab');
  await convertApk(apk, aabA, { overwrite: true });
  const setA = await buildApkSet(o, aabA, join(dir, 'a.apks'));
  const universalA = await buildUniversalApk(o, aabA, join(dir, 'universal-a'));
  const storedInA = ZipArchive.open(universalA)
    .entries.filter((e) => /^lib\/.+\.so$/.test(e.name) && e.method === 0)
    .map((e) => e.name);
  const problems: string[] = [];
  const xapk = writeXapk(firstVariant(splitApks(setA)), packageName, join(dir, 'set.xapk'));
  for (const [form, input] of [['.apks', setA], ['.xapk', xapk]] as const) {
    const aabB = join(dir, `b${form}.aab`);
    const reportB = await convertApk(input, aabB, { overwrite: true });
    const universalB = await buildUniversalApk(o, aabB, join(dir, `universal-b${form}`));
    for (const p of await compareRoundTrip({ aapt2: o.aapt2, source: universalA, universal: universalB, warnings: reportB.warnings })) problems.push(`${form}: ${p}`);
  }
  return { problems, storedInA };
}

/**
 * Of an .apks' splits, those of its first Android-range variant (`base-master.apk`, not
 * `base-master_2.apk`): one split per configuration, every ABI and language, as an .xapk holds them.
 */
function firstVariant(splits: ReadonlyMap<string, Buffer>): Map<string, Buffer> {
  // bundletool numbers a split's later variants _2, _3…; `x86_64.apk` is a split of its own, and a
  // name is a variant only when the name without its number is in the set too.
  const laterVariant = (name: string): boolean => {
    const m = /^(.+)_[2-9]\.apk$/.exec(name);
    return m !== null && splits.has(`${m[1]}.apk`);
  };
  return new Map([...splits].filter(([name]) => !laterVariant(name)));
}

function fixtureManifest(minSdk: number): string {
  return `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.stored" android:versionCode="5">
  <uses-sdk android:minSdkVersion="${minSdk}" android:targetSdkVersion="35"/>
  <application android:extractNativeLibs="false"><activity android:name=".Main" android:exported="true"/></application>
</manifest>`;
}

describe('split sets of apps with stored native libraries: extractNativeLibs="false" comes back', function () {
  this.timeout(15 * 60_000);
  let o: StoredOracles | undefined;
  let work = '';
  before(function () {
    o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2', 'protoc', 'frameworkRes');
    work = mkdtempSync(join(tmpdir(), 'aabify-stored-libs-'));
  });
  after(() => {
    if (!work) return;
    if (process.env.AABIFY_KEEP_ARTIFACTS === '1') console.log(`      stored-libraries artifacts kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  });

  for (const minSdk of [24, 21]) {
    it(`linkedApp_minSdk${minSdk}_universalApkOfTheRebuiltBundleIsTheOriginals`, async () => {
      const dir = join(work, `linked-${minSdk}`);
      mkdirSync(dir, { recursive: true });
      const files = { 'lib/arm64-v8a/libnative.so': elfLibrary({ size: 40_000 }), 'lib/armeabi-v7a/libnative.so': elfLibrary({ bits: 32, size: 40_000 }) };
      const apk = await buildAapt2Apk(o!, dir, 'app', { manifest: fixtureManifest(minSdk), files });
      const r = await storedRoundTrip(o!, apk, 'com.example.stored', dir);
      expect(r.storedInA, 'the original bundle keeps the libraries stored').to.have.length(2);
      expect(r.problems).to.deep.equal([]);
    });
  }

  const corpus = (listCorpus() ?? []).filter((apk) => hasNativeLibraries(apk.path));
  if (corpus.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
  }
  for (const apk of corpus) {
    it(`corpus_${apk.name}_storedLibrariesComeBackStored`, async () => {
      const dir = join(work, apk.name);
      const stored = nativeLibrariesStored(apk.path) ? apk.path : await withStoredNativeLibraries(o!, apk.path, join(dir, 'rebuilt'));
      const r = await storedRoundTrip(o!, stored, apk.packageName, dir);
      expect(r.storedInA, 'the original bundle keeps the libraries stored').to.not.deep.equal([]);
      if (r.problems.length > 0) expect.fail(`${apk.file}: ${r.problems.length} difference(s)\n${r.problems.join('\n\n')}`);
    });
  }
});
