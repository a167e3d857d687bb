/**
 * Split sets back to one bundle, for every corpus APK, against Google's bundletool:
 * 1. the APK → convertApk → bundle A; `build-apks` (split mode) → A.apks; `build-apks
 *    --mode=universal` → the universal APK of A;
 * 2. A.apks → convertApk → bundle B, whose universal APK must say exactly what A's says
 *    (resources, manifest, every entry's bytes: test/oracle/roundTrip.ts);
 * 3. the same splits repacked as an .xapk (deflated) and as a plain .zip (stored) must convert to
 *    B byte for byte (so bundletool need not run again for them);
 * 4. the set a device gets (`extract-apks --device-spec`) → convertApk → bundle C; what
 *    `build-apks` serves the same device from C must be what it served from A: the same resource
 *    values, base manifest and entries (test/oracle/deviceSets.ts; the split layout may differ,
 *    since C varies less than A).
 * bundletool runs four times per app (build-apks ×3, extract-apks); two apps at a time.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertApk } from '../src/index.js';
import { listCorpus, requireCorpus, type CorpusApk } from './helpers/corpus.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { compareDeviceSets, splitName } from './oracle/deviceSets.js';
import { compareRoundTrip } from './oracle/roundTrip.js';
import { buildApkSet, deviceSpecFile, extractForDevice, splitApks, writeXapk, writeZipOfApks } from './oracle/splitSets.js';
import { buildUniversalApk } from './oracle/tools.js';

const PARALLEL = 2;
type SetOracles = Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2'>;

interface SplitRoundTrip {
  problems: string[];
  splitCount: number;
  repackedIdentical: { xapk: boolean; zip: boolean };
  deviceSplits: string[];
}

async function splitRoundTrip(o: SetOracles, apk: CorpusApk, work: string): Promise<SplitRoundTrip> {
  const dir = join(work, apk.name);
  mkdirSync(dir, { recursive: true });
  const problems: string[] = [];
  const aabA = join(dir, 'a.aab');
  await convertApk(apk.path, aabA, { overwrite: true });
  const setA = await buildApkSet(o, aabA, join(dir, 'a.apks'));
  const universalA = await buildUniversalApk(o, aabA, join(dir, 'universal-a'));

  const aabB = join(dir, 'b.aab');
  const reportB = await convertApk(setA, aabB, { overwrite: true });
  const universalB = await buildUniversalApk(o, aabB, join(dir, 'universal-b'));
  for (const p of await compareRoundTrip({ aapt2: o.aapt2, source: universalA, universal: universalB, warnings: reportB.warnings })) {
    problems.push(`.apks: ${p}`);
  }

  const splits = splitApks(setA);
  const bytesB = readFileSync(aabB);
  const xapk = writeXapk(splits, apk.packageName, join(dir, 'set.xapk'));
  const zip = writeZipOfApks(splits, join(dir, 'set.zip'));
  await convertApk(xapk, join(dir, 'x.aab'), { overwrite: true });
  await convertApk(zip, join(dir, 'z.aab'), { overwrite: true });
  const repackedIdentical = { xapk: readFileSync(join(dir, 'x.aab')).equals(bytesB), zip: readFileSync(join(dir, 'z.aab')).equals(bytesB) };

  // A device's set: its splits from A, converted back, and served again to the same device.
  const device = await extractForDevice(o, setA, join(dir, 'device-a'));
  const aabC = join(dir, 'c.aab');
  await convertApk(device, aabC, { overwrite: true });
  const setC = await buildApkSet(o, aabC, join(dir, 'c.apks'), deviceSpecFile(dir));
  const deviceC = await extractForDevice(o, setC, join(dir, 'device-c'));
  for (const p of await compareDeviceSets(o.aapt2, device, deviceC)) problems.push(`device set: ${p}`);
  return { problems, splitCount: splits.size, repackedIdentical, deviceSplits: device.map(splitName) };
}

describe('split sets: bundletool .apks / .xapk / .zip / device set -> convertApk -> the same app', function () {
  this.timeout(10 * 60_000);
  const corpus = listCorpus() ?? [];
  const results = new Map<string, Promise<SplitRoundTrip>>();
  let oracles: SetOracles | undefined;
  let work = '';

  before(function () {
    oracles = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
    requireCorpus(this);
    work = mkdtempSync(join(tmpdir(), 'aabify-splits-'));
  });

  function start(i: number): Promise<SplitRoundTrip> | undefined {
    const apk = corpus[i];
    if (!apk || !oracles) return undefined;
    let p = results.get(apk.name);
    if (!p) {
      p = splitRoundTrip(oracles, apk, work);
      p.catch(() => undefined); // reported by the APK's own test
      results.set(apk.name, p);
    }
    return p;
  }

  after(async () => {
    await Promise.allSettled(results.values());
    if (!work) return;
    if (process.env.AABIFY_KEEP_ARTIFACTS === '1') console.log(`      split-set artifacts kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  });

  if (corpus.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
  }

  corpus.forEach((apk, i) => {
    it(`splitSets_${apk.name}_convertBackToTheSameApp`, async () => {
      const result = start(i);
      for (let ahead = 1; ahead < PARALLEL; ahead++) start(i + ahead);
      if (!result) throw new Error(`no split round trip was started for ${apk.name}`);
      const r = await result;
      if (r.problems.length > 0) expect.fail(`${apk.file}: ${r.problems.length} unexplained difference(s)\n${r.problems.join('\n\n')}`);
      expect(r.splitCount, 'split APKs in the .apks').to.be.greaterThan(0);
      expect(r.repackedIdentical, 'the .xapk and the .zip of the same splits give the .apks bundle byte for byte').to.deep.equal({ xapk: true, zip: true });
      expect(r.deviceSplits, 'the device set has the base APK').to.include('base-master.apk');
    });
  });
});
