/**
 * Before/after of the engine as a whole CLI process, and the fidelity check of a change: the
 * release CLI bundle of an older revision (built from `git archive`, see measure.ts) against the
 * working tree's, run alternately on the same inputs, each output's SHA-256 compared.
 *
 *   npx tsx bench/compare.ts --against HEAD~3                  # the 100 MB APK, 3 runs each
 *   npx tsx bench/compare.ts --against HEAD~3 --only corpus --runs 1   # every corpus APK: same bytes?
 *   npx tsx bench/compare.ts --against HEAD~3 --inputs a.apk,b.apks --runs 5
 *   npx tsx bench/compare.ts --against HEAD~3 --build-apks              # the 100 MB bundle's universal APK
 *   npx tsx bench/compare.ts --against HEAD~3 --build-apks --only corpus --runs 1 [--device arm64-v8a_xxhdpi_pt-BR]
 *
 * Prints per input and side the min and median wall time, CPU time (user + sys) and peak RSS,
 * and whether the AABs are byte-identical and the download-size estimates equal (exit 1 when
 * either differs or a conversion fails). With `--build-apks` the inputs are first converted to
 * AABs (by the working tree's CLI, once), and both sides run `build-apks` on them — the universal
 * APK, or with `--device` a device profile's set —, signed with one bench RSA key (its signatures
 * are deterministic), and the APKs' bytes are compared instead.
 */
import { existsSync, statSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listCorpus } from '../packages/converter/test/helpers/corpus.js';
import { defaultGrownPath, growApk } from './grow-apk.js';
import { BENCH_OUT, argValue, buildCli, buildRevisionCli, loadLine, measureNode, sha256File, type Measure } from './measure.js';

const against = argValue('--against');
if (!against) {
  console.error('usage: npx tsx bench/compare.ts --against <git revision> [--only grown|corpus] [--inputs a,b] [--runs 3]');
  process.exit(2);
}
const runs = Number(argValue('--runs', '3'));
const only = argValue('--only', 'grown');
const explicit = argValue('--inputs');
const buildApks = process.argv.includes('--build-apks');
const device = argValue('--device');

const old = buildRevisionCli(against);
const current = buildCli();
const apks = explicit ? explicit.split(',') : only === 'corpus' ? (listCorpus() ?? []).map((a) => a.path) : [growApk({ base: 'npm-apidemos-5', sizeMb: 100, out: defaultGrownPath('npm-apidemos-5', 100) })];
const outDir = join(BENCH_OUT, 'compare');
mkdirSync(outDir, { recursive: true });
const KS = join(outDir, 'compare-upload.p12');
const KS_ARGS = ['--ks', KS, '--ks-pass', 'pass:aabify-bench', '--ks-alias', 'upload'];

/** The AAB of each input (`.aab` inputs as they are), converted once by the working tree's CLI. */
async function bundlesOf(inputs: readonly string[]): Promise<string[]> {
  const dir = join(outDir, 'bundles');
  mkdirSync(dir, { recursive: true });
  const out: string[] = [];
  for (const input of inputs) {
    if (input.endsWith('.aab')) {
      out.push(input);
      continue;
    }
    const aab = join(dir, `${basename(input).replace(/\.[^.]+$/, '')}.aab`);
    const m = await measureNode(current, ['convert', '--local', input, '-o', aab, '--overwrite', '--json']);
    if (m.status === 0) out.push(aab);
    else console.log(`${basename(input)}: not converted (${m.stderr.split('\n').find((l) => l.startsWith('erro:')) ?? `exit ${m.status}`}), left out`);
  }
  if (!existsSync(KS)) {
    const k = await measureNode(current, ['keygen', '-o', KS, '--alias', 'upload', '--ks-pass', 'pass:aabify-bench', '--dname', 'CN=aabify compare']);
    if (k.status !== 0) throw new Error(`keygen failed: ${k.stderr}`);
  }
  return out;
}

const inputs = buildApks ? await bundlesOf(apks) : apks;
/** The command line of one side's run on `input`, writing `out`. */
const commandOf = (input: string, out: string): string[] =>
  buildApks
    ? ['build-apks', input, ...(device ? ['--device', device] : ['--universal']), '-o', out, '--overwrite', '--json', ...KS_ARGS]
    : ['convert', '--local', input, '-o', out, '--overwrite', '--json'];
const outputExtension = buildApks ? (device ? 'apks' : 'apk') : 'aab';

/** The report's download-size estimate, as JSON text: it must not move either. */
function downloadSizes(stdout: string): string {
  try {
    return JSON.stringify((JSON.parse(stdout) as { report?: { downloadSizes?: unknown } }).report?.downloadSizes ?? null);
  } catch {
    return 'unreadable';
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number[]): string => `${(Math.min(...ms) / 1000).toFixed(2)}/${(median(ms) / 1000).toFixed(2)}`;

console.log(`${loadLine()}\nbefore: ${old.commit.slice(0, 12)} (${against}); after: working tree; ${runs} run(s) each, alternating${buildApks ? `; build-apks ${device ? `--device ${device}` : '--universal'}` : ''}`);
console.log(`${'input'.padEnd(36)}${'MB'.padStart(7)}  ${'side'.padEnd(7)}${'wall min/med s'.padStart(16)}${'cpu min/med s'.padStart(16)}${'RSS MB'.padStart(10)}  output`);
let failed = false;
for (const input of inputs) {
  const mb = statSync(input).size / 1e6;
  const sides = [
    { label: 'before', bundle: old.bundle, runs: [] as Measure[], hash: '', sizes: '' },
    { label: 'after', bundle: current, runs: [] as Measure[], hash: '', sizes: '' },
  ];
  for (let r = 0; r < runs; r++) {
    for (const side of sides) {
      const out = join(outDir, `${side.label}.${outputExtension}`);
      const m = await measureNode(side.bundle, commandOf(input, out));
      side.runs.push(m);
      if (m.status === 0) {
        side.hash = sha256File(out);
        side.sizes = downloadSizes(m.stdout);
      } else failed = true;
      rmSync(out, { force: true });
    }
  }
  const same = sides[0].hash !== '' && sides[0].hash === sides[1].hash && sides[0].sizes === sides[1].sizes;
  if (!same) failed = true;
  for (const side of sides) {
    const ok = side.runs.every((m) => m.status === 0);
    const rss = side.runs.map((m) => m.peakRssKb / 1024);
    console.log(
      `${basename(input).slice(0, 35).padEnd(36)}${mb.toFixed(1).padStart(7)}  ${side.label.padEnd(7)}${fmt(side.runs.map((m) => m.wallMs)).padStart(16)}` +
        `${(side.runs.every((m) => m.cpuMs !== undefined) ? fmt(side.runs.map((m) => m.cpuMs!)) : '-').padStart(16)}` +
        `${`${Math.min(...rss).toFixed(0)}-${Math.max(...rss).toFixed(0)}`.padStart(10)}  ${ok ? (side.label === 'after' ? (same ? 'identical' : 'DIFFERENT') : side.hash.slice(0, 12)) : 'FAILED'}`,
    );
  }
}
console.log(loadLine());
process.exitCode = failed ? 1 : 0;
