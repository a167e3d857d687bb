/**
 * build-apks benchmark: the universal APK of the ~100 MB benchmark bundle (the grown APK of
 * convert.ts, converted to an AAB) built by `aabify build-apks --universal` (the real CLI, as a
 * user runs it) and by `bundletool build-apks --mode=universal`, in the same run, both signing
 * with the same upload key, their runs interleaved. Also the bundle of the APK it was grown from
 * (~5 MB), so the two peak RSS figures show whether memory stays flat as the bundle grows. Prints wall time, CPU time
 * (user + sys, all threads) and peak RSS per tool, and the ratios.
 * Goals: at least 20× faster than bundletool, under 1.5 s as a whole CLI process.
 *
 *   npx tsx bench/build-apks.ts [--runs 3] [--bundletool-runs 1] [--base npm-apidemos-5] [--size-mb 100]
 *
 * bundletool and aapt2 come from `npm run oracles` (.cache/oracles), java from the PATH.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { locateOracles } from '../packages/converter/test/helpers/oracles.js';
import { defaultGrownPath, growApk, resolveBase } from './grow-apk.js';
import { argValue, BENCH_OUT, buildCli, BUNDLE, loadLine, measureCommand, measureCp, measureNode, type Measure } from './measure.js';
import { describeFloor, signingFloor } from './signingFloor.js';

const KS_PASS = 'pass:aabify-bench';
const KS_ALIAS = 'upload';

interface Runs {
  best: Measure;
  medianWallMs: number;
}

async function measured(run: () => Promise<Measure>): Promise<Measure> {
  const m = await run();
  if (m.status !== 0) throw new Error(`exit ${m.status}\n${m.stderr.split('\n').filter((l) => !/^\s+[A-Z][a-z ()]+:/.test(l)).join('\n')}`);
  return m;
}

function summary(all: readonly Measure[]): Runs {
  const walls = all.map((m) => m.wallMs).sort((a, b) => a - b);
  const best = all.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  return { best, medianWallMs: walls[Math.floor(walls.length / 2)] };
}

/** Both tools' runs interleaved (ours, theirs, ours ...), so a shared machine's load weighs on both alike. */
async function alternate(runs: number, ours: () => Promise<Measure>, btRuns: number, theirs: () => Promise<Measure>): Promise<{ ours: Runs; theirs: Runs }> {
  const a: Measure[] = [];
  const b: Measure[] = [];
  for (let r = 0; r < Math.max(runs, btRuns); r++) {
    if (r < runs) a.push(await measured(ours));
    if (r < btRuns) b.push(await measured(theirs));
  }
  return { ours: summary(a), theirs: summary(b) };
}

const lpad = (s: string, n: number): string => s.padStart(n);
const seconds = (ms: number | undefined): string => (ms === undefined ? '-' : (ms / 1000).toFixed(2));

function row(tool: string, bundle: string, r: Runs): string {
  const m = r.best;
  return `${tool.padEnd(12)}${bundle.padEnd(42)}${lpad(seconds(m.wallMs), 8)}${lpad(seconds(r.medianWallMs), 8)}${lpad(seconds(m.cpuMs), 8)}${lpad((m.peakRssKb / 1024).toFixed(0), 8)}`;
}

/** An AAB of `apk`, converted by the CLI into `dir` (once per run: the engine may have changed). */
async function bundleOf(apk: string, dir: string): Promise<string> {
  const aab = join(dir, `${basename(apk, '.apk')}.aab`);
  const m = await measureNode(BUNDLE, ['convert', '--local', apk, '-o', aab, '--overwrite']);
  if (m.status !== 0) throw new Error(`converting ${apk} failed: ${m.stderr}`);
  return aab;
}

async function main(): Promise<void> {
  const runs = Number(argValue('--runs', '3'));
  const btRuns = Number(argValue('--bundletool-runs', '1'));
  const base = argValue('--base', 'npm-apidemos-5')!;
  const sizeMb = Number(argValue('--size-mb', '100'));
  const { java, bundletoolJar, aapt2 } = locateOracles();
  if (!java || !bundletoolJar || !aapt2) throw new Error('bundletool, aapt2 or java missing: run npm run oracles (java from the PATH)');

  buildCli();
  const dir = join(BENCH_OUT, 'apks');
  mkdirSync(dir, { recursive: true });
  const grownApk = defaultGrownPath(base, sizeMb);
  if (!existsSync(grownApk)) console.log(`growing ${base} to ${sizeMb} MB -> ${grownApk}`);
  const bundles = [await bundleOf(growApk({ base, sizeMb, out: grownApk }), dir), await bundleOf(resolveBase(base), dir)];
  const ks = join(dir, 'bench-upload.p12');
  if (!existsSync(ks)) {
    const k = await measureNode(BUNDLE, ['keygen', '-o', ks, '--alias', KS_ALIAS, '--ks-pass', KS_PASS, '--dname', 'CN=aabify bench']);
    if (k.status !== 0) throw new Error(`keygen failed: ${k.stderr}`);
  }

  console.log(loadLine());
  console.log(`aabify: release bundle ${basename(BUNDLE)}, best and median of ${runs}; bundletool: ${basename(bundletoolJar)} (java -jar), ${btRuns} run(s), alternating with aabify's; both sign with ${basename(ks)}\n`);
  console.log(`${'tool'.padEnd(12)}${'bundle'.padEnd(42)}${lpad('wall s', 8)}${lpad('median', 8)}${lpad('cpu s', 8)}${lpad('RSS MB', 8)}`);
  const results: { bundle: string; ours: Runs; theirs: Runs }[] = [];
  for (const aab of bundles) {
    const label = `${basename(aab)} (${(statSync(aab).size / 1e6).toFixed(0)} MB)`;
    const apk = join(dir, `${basename(aab, '.aab')}-universal.apk`);
    const apks = join(dir, `${basename(aab, '.aab')}-bundletool.apks`);
    const btArgs = ['-jar', bundletoolJar, 'build-apks', '--mode=universal', `--bundle=${aab}`, `--output=${apks}`, `--aapt2=${aapt2}`, '--overwrite', `--ks=${ks}`, `--ks-pass=${KS_PASS}`, `--ks-key-alias=${KS_ALIAS}`];
    // Each run writes a new file (replacing a 100 MB one adds ext4's flush inside the rename: docs/apks.md).
    const { ours, theirs } = await alternate(
      runs,
      () => (rmSync(apk, { force: true }), measureNode(BUNDLE, ['build-apks', aab, '--universal', '-o', apk, '--overwrite', '--ks', ks, '--ks-pass', KS_PASS, '--ks-alias', KS_ALIAS, '--json'])),
      btRuns,
      () => (rmSync(apks, { force: true }), measureCommand(java, btArgs)),
    );
    console.log(row('aabify', label, ours));
    console.log(row('bundletool', label, theirs));
    results.push({ bundle: label, ours, theirs });
  }
  console.log('');
  for (const r of results) {
    const wall = r.theirs.best.wallMs / r.ours.best.wallMs;
    const cpu = r.ours.best.cpuMs && r.theirs.best.cpuMs ? `, CPU ${(r.theirs.best.cpuMs / r.ours.best.cpuMs).toFixed(1)}×` : '';
    console.log(`${r.bundle}: aabify ${wall.toFixed(1)}× faster than bundletool (wall${cpu})`);
  }
  const [big, small] = results;
  console.log(`peak RSS of aabify: ${(big.ours.best.peakRssKb / 1024).toFixed(0)} MB for ${big.bundle}, ${(small.ours.best.peakRssKb / 1024).toFixed(0)} MB for ${small.bundle}`);
  // What no signer can skip for the big bundle's APK, and the best ratio it leaves against bundletool.
  const bigApk = join(dir, `${basename(bundles[0]!, '.aab')}-universal.apk`);
  const floor = await signingFloor(bigApk);
  const startup = await measureNode(BUNDLE, ['--version']);
  const cp = measureCp(bigApk, 3);
  const floorWallMs = floor.wallFloorMs + startup.wallMs + cp.wallMs;
  console.log(describeFloor(floor));
  console.log(
    `with Node's start (${startup.wallMs.toFixed(0)} ms) and a copy of the file (cp, ${cp.wallMs.toFixed(0)} ms): no build of ${big.bundle} under ${(floorWallMs / 1000).toFixed(2)} s here, ` +
      `at most ${(big.theirs.best.wallMs / floorWallMs).toFixed(1)}× bundletool's ${(big.theirs.best.wallMs / 1000).toFixed(2)} s`,
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
