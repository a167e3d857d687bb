/**
 * build-apks judged by Google's tools, for every corpus APK: the universal APK the engine builds
 * from our AAB equals the one `bundletool build-apks --mode=universal` builds from the same AAB
 * (`aapt2 dump resources`, `aapt2 dump xmltree` of the manifest and every res/ XML file, every
 * other entry byte for byte and stored or deflated alike), its stored entries are aligned, and
 * Debian's apksigner accepts its signature (v2 and v3; v1 too for apps that install before
 * Android 7.0). The same for the AAB Google's own pipeline makes of the APK, where that pipeline
 * works. The conversions and bundletool's runs are shared with the round-trip tests.
 *
 * Runs two APKs at a time, as the round-trip test does.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { buildApks, type ApksReport } from '../src/index.js';
import { listCorpus, requireCorpus, type CorpusApk } from './helpers/corpus.js';
import { corpusBundle, googleCorpusBundle } from './helpers/corpusBundles.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { apksignerVerify, compareApks, misalignedEntries } from './oracle/apksCompare.js';

const PARALLEL = 2;
/** Google's pipeline fails on these (no versionCode, SDK codenames): nothing to build APKs from. */
const GOOGLE_FAILS = new Set(['at-sparse', 'npm-helloactivity', 'npm-appium-uia2-test', 'at-issue2701']);

type FidelityOracles = Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2' | 'apksigner'>;

interface Fidelity {
  report: ApksReport;
  problems: string[];
}

async function fidelity(o: FidelityOracles, aab: string, expected: string, out: string): Promise<Fidelity> {
  const report = await buildApks(aab, out, { overwrite: true });
  const problems = await compareApks(o.aapt2, expected, out);
  const misaligned = misalignedEntries(out, 16384);
  if (misaligned.length > 0) problems.push(`stored entries not aligned: ${misaligned.slice(0, 5).join(', ')}`);
  const v = await apksignerVerify(o.apksigner, out);
  const v1 = report.signature.schemes.includes('v1');
  if (!v.verifies || !v.v2 || !v.v3 || v.v1 !== v1) problems.push(`apksigner verify --verbose: v1=${v.v1} (expected ${v1}), v2=${v.v2}, v3=${v.v3}\n${v.output.split('\n').slice(0, 12).join('\n')}`);
  return { report, problems };
}

describe('build-apks fidelity: our universal APK equals bundletool’s, for every corpus APK', function () {
  this.timeout(5 * 60_000);
  const corpus = listCorpus() ?? [];
  const ourResults = new Map<string, Promise<Fidelity>>();
  const googleResults = new Map<string, Promise<Fidelity>>();
  let oracles: FidelityOracles | undefined;

  before(function () {
    oracles = requireOracles(this, 'java', 'bundletoolJar', 'aapt2', 'apksigner');
    requireCorpus(this);
  });

  after(async () => {
    await Promise.allSettled([...ourResults.values(), ...googleResults.values()]);
  });

  function start(i: number): void {
    const apk = corpus[i];
    if (!apk || !oracles || ourResults.has(apk.name)) return;
    const o = oracles;
    const mine = corpusBundle(o, apk).then((b) => fidelity(o, b.aab, b.universal, join(b.dir, 'aabify-universal.apk')));
    mine.catch(() => undefined);
    ourResults.set(apk.name, mine);
    if (!GOOGLE_FAILS.has(apk.name)) {
      const theirs = googleCorpusBundle(o, apk).then((g) => fidelity(o, g.aab, g.universal, join(g.dir, 'aabify-universal.apk')));
      theirs.catch(() => undefined);
      googleResults.set(apk.name, theirs);
    }
  }

  if (corpus.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
  }

  const check = async (apk: CorpusApk, result: Promise<Fidelity> | undefined, what: string): Promise<void> => {
    if (!result) throw new Error(`nothing was started for ${apk.name}`);
    const { report, problems } = await result;
    if (problems.length > 0) expect.fail(`${apk.file} (${what}): ${problems.length} difference(s)\n${problems.join('\n\n')}`);
    expect(report.packageName).to.equal(apk.packageName);
    expect(report.signature.testKey, 'signed with the test key').to.equal(true);
    expect(report.warnings.map((w) => w.code)).to.include('TEST_KEY_SIGNED');
  };

  corpus.forEach((apk, i) => {
    it(`buildApks_${apk.name}_universalEqualsBundletools`, async () => {
      for (let ahead = 0; ahead < PARALLEL; ahead++) start(i + ahead);
      await check(apk, ourResults.get(apk.name), 'our AAB');
    });
    if (GOOGLE_FAILS.has(apk.name)) return;
    it(`buildApks_${apk.name}_googlePipelineAab_universalEqualsBundletools`, async () => {
      start(i);
      await check(apk, googleResults.get(apk.name), 'AAB of aapt2 convert + bundletool build-bundle');
    });
  });
});
