/**
 * The engine's acceptance test: every corpus APK goes through convertApk, `bundletool validate`,
 * `bundletool build-apks --mode=universal` (which runs Google's aapt2 on our protos), and the
 * universal APK must say what the source APK says (see test/oracle/roundTrip.ts for what is
 * compared and which differences are allowed). Google's own pipeline fails on some corpus APKs
 * (no versionCode, SDK codenames); ours must pass every one.
 *
 * Runs two APKs at a time (CI has two cores): each test starts its own APK and the next one, then
 * waits for its own, so a failure is reported per APK and `--grep` runs only what it names (and
 * one neighbour). AABIFY_KEEP_ARTIFACTS=1 keeps the work folder (test/helpers/corpusBundles.ts).
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertApk, type ConversionReport } from '../src/index.js';
import { listCorpus, requireCorpus, type CorpusApk } from './helpers/corpus.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { dumpBadging, type Badging } from './oracle/badging.js';
import { compareRoundTrip } from './oracle/roundTrip.js';
import { corpusBundle } from './helpers/corpusBundles.js';

const PARALLEL = 2;

interface RoundTrip {
  report: ConversionReport;
  problems: string[];
  /** What Debian's aapt (aapt1) reads from the universal APK. */
  badging: Badging;
}

type RoundTripOracles = Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2' | 'aapt'>;

async function roundTrip(o: RoundTripOracles, apk: CorpusApk): Promise<RoundTrip> {
  // Shared with the build-apks fidelity test: the conversion and bundletool's run happen once.
  const { report, universal } = await corpusBundle(o, apk);
  const problems = await compareRoundTrip({ aapt2: o.aapt2, source: apk.path, universal, warnings: report.warnings });
  const badging = await dumpBadging(o.aapt, universal);
  return { report, problems, badging };
}

describe('round trip: corpus APK -> convertApk -> bundletool -> universal APK equals the APK', function () {
  this.timeout(5 * 60_000);
  const corpus = listCorpus() ?? [];
  const results = new Map<string, Promise<RoundTrip>>();
  let oracles: RoundTripOracles | undefined;

  before(function () {
    oracles = requireOracles(this, 'java', 'bundletoolJar', 'aapt2', 'aapt');
    requireCorpus(this);
  });

  /** Starts the round trip of corpus[i] once; tests run in order, so i and i+1 run side by side. */
  function start(i: number): Promise<RoundTrip> | undefined {
    const apk = corpus[i];
    if (!apk || !oracles) return undefined;
    let p = results.get(apk.name);
    if (!p) {
      p = roundTrip(oracles, apk);
      p.catch(() => undefined); // reported by the APK's own test
      results.set(apk.name, p);
    }
    return p;
  }

  after(async () => {
    await Promise.allSettled(results.values());
  });

  if (corpus.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
  }

  corpus.forEach((apk, i) => {
    it(`roundTrip_${apk.name}_universalApkSaysWhatTheApkSays`, async () => {
      const result = start(i);
      for (let ahead = 1; ahead < PARALLEL; ahead++) start(i + ahead);
      if (!result) throw new Error(`no round trip was started for ${apk.name}`);
      const { report, problems, badging } = await result;
      if (problems.length > 0) expect.fail(`${apk.file}: ${problems.length} unexplained difference(s)\n${problems.join('\n\n')}`);
      expect(report.packageName).to.equal(apk.packageName);
      expect(report.dexCount).to.equal(apk.dexCount);
      expect([...report.abis].sort()).to.deep.equal([...apk.abis].sort());
      // The report says what the APK declares; aapt1 reads the result, where the engine may have
      // filled in what was missing (versionCode 1, a codename's API level).
      expect(badging.packageName, 'package name (aapt dump badging)').to.equal(report.packageName);
      if (report.versionCode !== undefined) expect(badging.versionCode, 'versionCode (aapt dump badging)').to.equal(report.versionCode);
      if (report.versionName !== undefined) expect(badging.versionName, 'versionName (aapt dump badging)').to.equal(report.versionName);
      if (report.minSdk !== undefined) expect(badging.minSdk, 'minSdkVersion (aapt dump badging)').to.equal(report.minSdk);
      if (report.targetSdk !== undefined) expect(badging.targetSdk, 'targetSdkVersion (aapt dump badging)').to.equal(report.targetSdk);
    });
  });
});

describe('determinism: converting the same APK twice gives identical bytes', function () {
  this.timeout(5 * 60_000);
  let work = '';
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'aabify-determinism-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('convertApk_everyCorpusApkTwice_identicalAab', async function () {
    const corpus = requireCorpus(this);
    const differing: string[] = [];
    for (const apk of corpus) {
      const a = join(work, `${apk.name}.1.aab`);
      const b = join(work, `${apk.name}.2.aab`);
      await convertApk(apk.path, a, { overwrite: true });
      await convertApk(apk.path, b, { overwrite: true });
      if (!readFileSync(a).equals(readFileSync(b))) differing.push(apk.file);
      rmSync(a);
      rmSync(b);
    }
    expect(differing, 'APKs whose two conversions differ').to.deep.equal([]);
  });
});
