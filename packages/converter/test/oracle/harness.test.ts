/**
 * Sanity checks of the round-trip harness itself, with no engine involved: an APK compared with
 * itself has no difference, Google's own pipeline (aapt2 convert + bundletool build-bundle) round
 * trips without a difference the harness would report, and a different APK is caught.
 * A few APKs by default; every corpus APK with AABIFY_ORACLE_FULL=1.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireCorpusApk } from '../helpers/corpus.js';
import { googleCorpusBundle } from '../helpers/corpusBundles.js';
import { requireOracles } from '../helpers/oracles.js';
import { compareRoundTrip } from './roundTrip.js';
import { buildUniversalApk, googleBundle, validateBundle } from './tools.js';

const SAMPLE = ['jx-small', 'ag-politedroid', 'apkinspector-minimal', 'drozer-agent'];
const ALL_GOOGLE_PASSES = [
  'ag-abcore', 'ag-jamendo', 'ag-politedroid', 'ag-testactivity', 'ag-weardrawers', 'andresguard-demo-plain', 'androgoat',
  'apkinspector-minimal', 'at-issue1605', 'at-issue3533', 'at-issue767', 'cordova-esup-otp', 'diva', 'drozer-agent',
  'expense-tracker', 'gdx-shadertest', 'github-mobile', 'insecurebankv2-release', 'jx-small', 'mastg-r2pay',
  'mastg-uncrackable1', 'mastg-uncrackable2', 'npm-apidemos-5', 'npm-appium-settings-2015', 'npm-appium-settings',
  'rn-bitlist-armv7',
];

describe('oracle: harness sanity', function () {
  this.timeout(180_000);
  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'aabify-harness-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('compareRoundTrip_apkAgainstItself_noProblem', async function () {
    const o = requireOracles(this, 'aapt2');
    const apk = requireCorpusApk(this, 'drozer-agent');
    expect(await compareRoundTrip({ aapt2: o.aapt2, source: apk.path, universal: apk.path })).to.deep.equal([]);
  });

  it('compareRoundTrip_differentApk_reportsFirstDifferingLines', async function () {
    const o = requireOracles(this, 'aapt2');
    const a = requireCorpusApk(this, 'ag-politedroid');
    const b = requireCorpusApk(this, 'npm-appium-settings-2015');
    const problems = await compareRoundTrip({ aapt2: o.aapt2, source: a.path, universal: b.path });
    expect(problems[0]).to.match(/^aapt2 dump resources differs; first difference at line 2 /);
    expect(problems.join('\n')).to.contain('AndroidManifest.xml (aapt2 dump xmltree) differs');
  });

  const names = process.env.AABIFY_ORACLE_FULL === '1' ? ALL_GOOGLE_PASSES : SAMPLE;
  for (const name of names) {
    it(`googlePipeline_${name}_roundTripsWithoutDifference`, async function () {
      const o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
      const apk = requireCorpusApk(this, name);
      // Shared with the build-apks fidelity test, which builds its own APK from the same AAB.
      const { aab, universal } = await googleCorpusBundle(o, apk);
      await validateBundle(o, aab);
      // A module built without uncompressed globs lets bundletool compress what the APK stored
      // (docs/aab-format.md "What we set in BundleConfig"): our engine must not, Google's bare pipeline does; see below.
      expect(await compareRoundTrip({ aapt2: o.aapt2, source: apk.path, universal, checkStored: false })).to.deep.equal([]);
    });
  }

  it('googlePipeline_storedPngsWithoutUncompressedGlobs_reportedAsCompressed', async function () {
    const o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
    const apk = requireCorpusApk(this, 'ag-politedroid');
    const dir = join(work, 'stored-check');
    const aab = join(dir, 'google.aab');
    await googleBundle(o, apk.path, aab, dir);
    const universal = await buildUniversalApk(o, aab, dir);
    const problems = await compareRoundTrip({ aapt2: o.aapt2, source: apk.path, universal });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^entries stored uncompressed in the APK but compressed after the round trip \(3\):\n {4}res\/drawable-hdpi\/icon\.png/);
  });

  it('googlePipeline_noVersionCode_failsWhereOursMustNot', async function () {
    const o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
    const apk = requireCorpusApk(this, 'at-sparse');
    const dir = join(work, 'at-sparse');
    let error: unknown;
    await googleBundle(o, apk.path, join(dir, 'google.aab'), dir).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('Version code not found in manifest');
  });
});
