/**
 * The engine's acceptance test: every corpus APK goes through convertApk, `bundletool validate`,
 * `bundletool build-apks --mode=universal` (which runs Google's aapt2 on our protos), and the
 * universal APK must say what the source APK says (see test/oracle/roundTrip.ts for what is
 * compared and which differences are allowed). Google's own pipeline fails on some corpus APKs
 * (no versionCode, SDK codenames); ours must pass every one.
 *
 * Runs two APKs at a time (CI has two cores): all pipelines start in `before`, each test waits for
 * its own APK, so a failure is reported per APK. AABIFY_KEEP_ARTIFACTS=1 keeps the work folder.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertApk, type ConversionReport } from '../src/index.js';
import { listCorpus, requireCorpus, type CorpusApk } from './helpers/corpus.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { compareRoundTrip } from './oracle/roundTrip.js';
import { buildUniversalApk, validateBundle } from './oracle/tools.js';

const PARALLEL = 2;

interface RoundTrip {
  report: ConversionReport;
  problems: string[];
}

/** Runs `task`s with at most `limit` in flight. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  const next = (): void => {
    if (active >= limit) return;
    const start = queue.shift();
    if (start) {
      active++;
      start();
    }
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            active--;
            next();
          });
      });
      next();
    });
}

async function roundTrip(o: Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2'>, apk: CorpusApk, work: string): Promise<RoundTrip> {
  const dir = join(work, apk.name);
  mkdirSync(dir, { recursive: true });
  const aab = join(dir, `${apk.name}.aab`);
  const report = await convertApk(apk.path, aab, { overwrite: true });
  await validateBundle(o, aab);
  const universal = await buildUniversalApk(o, aab, dir);
  const problems = await compareRoundTrip({ aapt2: o.aapt2, source: apk.path, universal, warnings: report.warnings });
  return { report, problems };
}

describe('round trip: corpus APK -> convertApk -> bundletool -> universal APK equals the APK', function () {
  // Each test may wait for the ones queued before it.
  this.timeout(15 * 60_000);
  const corpus = listCorpus() ?? [];
  const results = new Map<string, Promise<RoundTrip>>();
  let work = '';

  before(function () {
    const o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
    requireCorpus(this);
    work = mkdtempSync(join(tmpdir(), 'aabify-roundtrip-'));
    const limit = limiter(PARALLEL);
    for (const apk of corpus) {
      const p = limit(() => roundTrip(o, apk, work));
      p.catch(() => undefined); // reported by the APK's own test
      results.set(apk.name, p);
    }
  });

  after(async () => {
    await Promise.allSettled(results.values());
    if (!work) return;
    if (process.env.AABIFY_KEEP_ARTIFACTS === '1') console.log(`      round-trip artifacts kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  });

  if (corpus.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
  }

  for (const apk of corpus) {
    it(`roundTrip_${apk.name}_universalApkSaysWhatTheApkSays`, async () => {
      const result = results.get(apk.name);
      if (!result) throw new Error(`no round trip was started for ${apk.name}`);
      const { report, problems } = await result;
      expect(problems, `${apk.file}:\n${problems.join('\n\n')}`).to.deep.equal([]);
      expect(report.packageName).to.equal(apk.packageName);
      expect(report.dexCount).to.equal(apk.dexCount);
      expect([...report.abis].sort()).to.deep.equal([...apk.abis].sort());
    });
  }
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
