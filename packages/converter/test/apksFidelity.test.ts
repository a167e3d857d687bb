/**
 * build-apks judged by Google's tools, for every corpus APK: the universal APK the engine builds
 * from our AAB equals the one `bundletool build-apks --mode=universal` builds from the same AAB
 * (`aapt2 dump resources`, `aapt2 dump xmltree` of the manifest and every res/ XML file, every
 * other entry byte for byte and stored or deflated alike), its stored entries are aligned, and
 * Debian's apksigner accepts its signature (v2 and v3; v1 too for apps that install before
 * Android 7.0). The same for the AAB Google's own pipeline makes of the APK, where that pipeline
 * works. Device sets (an Android 11 phone; an Android 4.1 one for a few old apps) hold the same
 * APKs as bundletool's for the same device spec, each equal by the same measure. The conversions
 * and bundletool's universal runs are shared with the round-trip tests.
 *
 * Runs two APKs at a time, as the round-trip test does.
 */
import { expect } from 'chai';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApks, type ApksReport, type DeviceSpec } from '../src/index.js';
import { listCorpus, requireCorpus, type CorpusApk } from './helpers/corpus.js';
import { corpusBundle, googleCorpusBundle } from './helpers/corpusBundles.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { apksignerVerify, compareApks, misalignedEntries } from './oracle/apksCompare.js';
import { buildApkSet, DEVICE_SPEC } from './oracle/splitSets.js';
import { bundletool } from './oracle/tools.js';
import { ZipArchive } from './oracle/zip.js';

const PARALLEL = 2;
/** A device before Android 5.0 (served one standalone APK), for a few apps that still install there. */
const PRE_L_SPEC = { supportedAbis: ['armeabi-v7a', 'armeabi'], supportedLocales: ['pt-BR', 'en'], screenDensity: 240, sdkVersion: 16 };
const PRE_L_APPS = new Set(['ag-politedroid', 'drozer-agent', 'ag-jamendo', 'rn-bitlist-armv7']);
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
  // From Android 9 (API 28) on, apksigner checks v3 alone; the v2 block is checked as Android 8.1 would.
  if ((report.minSdk ?? 1) >= 28) v.v2 = (await apksignerVerify(o.apksigner, out, 27)).v2;
  if (!v.verifies || !v.v2 || !v.v3 || v.v1 !== v1) problems.push(`apksigner verify --verbose: v1=${v.v1} (expected ${v1}), v2=${v.v2}, v3=${v.v3}\n${v.output.split('\n').slice(0, 12).join('\n')}`);
  return { report, problems };
}

/**
 * The APKs bundletool serves a device, as set path → bytes: those of `build-apks --device-spec`.
 * For a pre-Lollipop device whose app has density shards, bundletool 1.18 writes an empty device
 * set, yet `extract-apks` picks a standalone APK for that device from the full set: that one is
 * what a device gets, so it is the reference then.
 */
async function bundletoolDeviceApks(o: FidelityOracles, aab: string, dir: string, specFile: string, tag: string): Promise<Map<string, Buffer>> {
  const set = ZipArchive.open(await buildApkSet(o, aab, join(dir, `${tag}-bundletool.apks`), specFile));
  const apks = new Map(set.entries.filter((e) => e.name.endsWith('.apk')).map((e) => [e.name, set.read(e)] as const));
  if (apks.size > 0) return apks;
  const all = await buildApkSet(o, aab, join(dir, `${tag}-bundletool-all.apks`));
  const extracted = join(dir, `${tag}-extracted`);
  rmSync(extracted, { recursive: true, force: true });
  await bundletool(o, ['extract-apks', `--apks=${all}`, `--output-dir=${extracted}`, `--device-spec=${specFile}`]);
  for (const f of readdirSync(extracted)) apks.set(`${f.startsWith('standalone-') ? 'standalones' : 'splits'}/${f}`, readFileSync(join(extracted, f)));
  return apks;
}

/**
 * A device set built by the engine against bundletool's for the same device: the same APK paths,
 * and each APK the same by compareApks.
 */
async function deviceSetFidelity(o: FidelityOracles, aab: string, dir: string, spec: object, tag: string): Promise<Fidelity> {
  mkdirSync(dir, { recursive: true });
  const specFile = join(dir, `${tag}-spec.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const expected = await bundletoolDeviceApks(o, aab, dir, specFile, tag);
  const out = join(dir, `${tag}-aabify.apks`);
  const report = await buildApks(aab, out, { mode: 'device', deviceSpec: spec as DeviceSpec, overwrite: true });
  const ours = ZipArchive.open(out);
  const expectedNames = [...expected.keys()].sort();
  const ourNames = ours.entries.map((e) => e.name).filter((n) => n.endsWith('.apk')).sort();
  const problems: string[] = [];
  if (expectedNames.join(' ') !== ourNames.join(' ')) problems.push(`APKs of the set differ:
    bundletool: ${expectedNames.join(' ')}
    aabify:     ${ourNames.join(' ')}`);
  for (const [i, name] of expectedNames.entries()) {
    const other = ours.entries.find((e) => e.name === name);
    if (!other) continue;
    // Numbered: a standalone APK's name lists its languages, too long for a file name.
    const pa = join(dir, `${tag}-bt-${i}.apk`);
    const pb = join(dir, `${tag}-ours-${i}.apk`);
    writeFileSync(pa, expected.get(name)!);
    writeFileSync(pb, ours.read(other));
    for (const p of await compareApks(o.aapt2, pa, pb)) problems.push(`${name}: ${p}`);
    const v = await apksignerVerify(o.apksigner, pb);
    if (!v.verifies) problems.push(`${name}: apksigner verify fails\n${v.output.split('\n').slice(0, 6).join('\n')}`);
  }
  return { report, problems };
}

describe('build-apks fidelity: our universal APK equals bundletool’s, for every corpus APK', function () {
  this.timeout(5 * 60_000);
  const corpus = listCorpus() ?? [];
  const ourResults = new Map<string, Promise<Fidelity>>();
  const googleResults = new Map<string, Promise<Fidelity>>();
  const deviceResults = new Map<string, Promise<Fidelity[]>>();
  let oracles: FidelityOracles | undefined;

  before(function () {
    oracles = requireOracles(this, 'java', 'bundletoolJar', 'aapt2', 'apksigner');
    requireCorpus(this);
  });

  after(async () => {
    await Promise.allSettled([...ourResults.values(), ...googleResults.values(), ...deviceResults.values()]);
  });

  function start(i: number): void {
    const apk = corpus[i];
    if (!apk || !oracles || ourResults.has(apk.name)) return;
    const o = oracles;
    const bundle = corpusBundle(o, apk);
    const mine = bundle.then((b) => fidelity(o, b.aab, b.universal, join(b.dir, 'aabify-universal.apk')));
    mine.catch(() => undefined);
    ourResults.set(apk.name, mine);
    const sets = bundle.then(async (b) => {
      const out = [await deviceSetFidelity(o, b.aab, join(b.dir, 'device'), DEVICE_SPEC, 'android11')];
      if (PRE_L_APPS.has(apk.name)) out.push(await deviceSetFidelity(o, b.aab, join(b.dir, 'device'), PRE_L_SPEC, 'android41'));
      return out;
    });
    sets.catch(() => undefined);
    deviceResults.set(apk.name, sets);
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
    it(`buildApks_${apk.name}_deviceSetEqualsBundletools`, async () => {
      start(i);
      const results = deviceResults.get(apk.name);
      if (!results) throw new Error(`nothing was started for ${apk.name}`);
      const problems = (await results).flatMap((r) => r.problems);
      if (problems.length > 0) expect.fail(`${apk.file} (device sets): ${problems.length} difference(s)\n${problems.join('\n\n')}`);
    });
    if (GOOGLE_FAILS.has(apk.name)) return;
    it(`buildApks_${apk.name}_googlePipelineAab_universalEqualsBundletools`, async () => {
      start(i);
      await check(apk, googleResults.get(apk.name), 'AAB of aapt2 convert + bundletool build-bundle');
    });
  });
});
