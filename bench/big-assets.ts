/**
 * The big-game case: a 300 MB APK of incompressible stored assets (made in bench/out/, never
 * committed), converted by the CLI bundle as is (the report says the base is over Play's limit)
 * and with `--asset-pack media=media/**` (assets in an install-time pack); then jx-small with an
 * OBB file of the same size (the same bytes, hard-linked as main.1.<package>.obb). Prints wall
 * time, CPU, peak RSS (`/usr/bin/time -v`) and MB/s of each: peak memory must not grow with the
 * assets, and MB/s should not fall with the size.
 *
 *   npx tsx bench/big-assets.ts [--size-mb 300] [--runs 3]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CORPUS_DIR, listCorpus } from '../packages/converter/test/helpers/corpus.js';
import { writeBigAssetsApk } from '../packages/converter/test/helpers/bigApk.js';
import { BENCH_OUT } from './grow-apk.js';

const REPO = join(BENCH_OUT, '..', '..');
const CLI_DIR = join(REPO, 'packages', 'cli');
const BUNDLE = join(CLI_DIR, 'dist', 'aabify.js');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const sizeMb = Number(arg('--size-mb', '300'));
const runs = Number(arg('--runs', '3'));
mkdirSync(BENCH_OUT, { recursive: true });
const apk = join(BENCH_OUT, `big-assets-${sizeMb}mb.apk`);
if (!existsSync(apk)) {
  console.log(`writing ${apk}`);
  writeBigAssetsApk(join(CORPUS_DIR, 'jx-small.apk'), apk, sizeMb);
}
if (spawnSync(process.execPath, ['build.mjs', '--release'], { cwd: CLI_DIR, stdio: 'inherit' }).status !== 0) throw new Error('CLI build failed');
console.log(`load average ${loadavg()[0].toFixed(1)}; ${(statSync(apk).size / 1e6).toFixed(0)} MB APK; best of ${runs}`);

const jxSmall = join(CORPUS_DIR, 'jx-small.apk');
const obb = join(BENCH_OUT, `main.1.${listCorpus()?.find((a) => a.file === 'jx-small.apk')?.packageName ?? 'unknown'}.obb`);
if (!existsSync(obb)) linkSync(apk, obb);
const mb = statSync(apk).size / 1e6;

for (const [label, input, extra] of [
  ['as is (base over the limit)', apk, []],
  ['--asset-pack media=media/**', apk, ['--asset-pack', 'media=media/**']],
  ['jx-small.apk --obb (same size)', jxSmall, ['--obb', obb]],
] as const) {
  let best: { wall: number; cpu: number; rss: number; status: number | null } | undefined;
  for (let r = 0; r < runs; r++) {
    const out = join(BENCH_OUT, 'big-assets.aab');
    const res = spawnSync('/usr/bin/time', ['-v', process.execPath, BUNDLE, 'convert', '--local', input, '-o', out, '--overwrite', '--json', ...extra], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const num = (re: RegExp): number => Number(re.exec(res.stderr)?.[1] ?? NaN);
    const [m, s] = (/Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?([\d.]+)/.exec(res.stderr) ?? []).slice(1);
    const wall = Number(m ?? 0) * 60 + Number(s);
    const cpu = num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/);
    const rss = num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024;
    if (!best || wall < best.wall) best = { wall, cpu, rss, status: res.status };
    rmSync(out, { force: true });
  }
  console.log(`${label.padEnd(32)} wall ${best!.wall.toFixed(2)} s (${(mb / best!.wall).toFixed(0)} MB/s)  cpu ${best!.cpu.toFixed(2)} s  peak RSS ${best!.rss.toFixed(0)} MB  exit ${best!.status}`);
}
