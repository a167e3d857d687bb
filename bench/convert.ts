/**
 * Conversion benchmark: spawns `aabify convert --local` (the real CLI, as a user runs it) on a
 * ~100 MB grown APK and on every corpus APK, and prints wall time, MB/s and peak RSS.
 * Targets: the 100 MB APK in under 2 s with a peak RSS under 200 MB.
 *
 *   npx tsx bench/convert.ts [--runs 3] [--only grown|corpus] [--base npm-apidemos-5] [--size-mb 100] [--from-source]
 *
 * Peak RSS comes from `/usr/bin/time -v` when present, else from polling /proc/<pid>/status.
 * The CLI is measured on its esbuild bundle (packages/cli/dist/aabify.js, what bin/aabify.js runs
 * when it is current), rebuilt first and then run directly, so a source file edited meanwhile
 * cannot send the bin back to the TypeScript sources halfway through (the end says whether that
 * happened). `--from-source` measures the bin on the sources through tsx instead. The `startup`
 * line (`aabify --version`) shows what starting the CLI costs by itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { listCorpus } from '../packages/converter/test/helpers/corpus.js';
import { BENCH_OUT, defaultGrownPath, growApk } from './grow-apk.js';

const REPO = resolve(BENCH_OUT, '..', '..');
const CLI_DIR = join(REPO, 'packages', 'cli');
const BIN = join(CLI_DIR, 'bin', 'aabify.js');
const BUNDLE = join(CLI_DIR, 'dist', 'aabify.js');
const SOURCE_DIRS = ['cli', 'converter', 'shared'].map((p) => join(REPO, 'packages', p, 'src'));
const TIME = '/usr/bin/time';
let fromSource = false;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** What bin/aabify.js would run now: the bundle when it is newer than every source (its own rule). */
function cliMode(): 'bundle' | 'source' {
  if (fromSource || !existsSync(BUNDLE)) return 'source';
  const built = statSync(BUNDLE).mtimeMs;
  return SOURCE_DIRS.some((d) => existsSync(d) && newestMtime(d) > built) ? 'source' : 'bundle';
}

function buildCli(): void {
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: CLI_DIR, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`building the CLI bundle failed (exit ${r.status})`);
}

interface Measure {
  wallMs: number;
  /** User + system CPU time (from /usr/bin/time), undefined with /proc polling. */
  cpuMs?: number;
  peakRssKb: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** VmHWM (the process's own peak RSS) read from /proc while it runs. */
function pollPeakRss(pid: number, onValue: (kb: number) => void): NodeJS.Timeout {
  return setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) onValue(Number(m[1]));
    } catch {
      // exited between two polls
    }
  }, 5);
}

function measure(args: string[]): Promise<Measure> {
  const useTime = existsSync(TIME);
  const entry = fromSource ? BIN : BUNDLE;
  const [cmd, argv] = useTime ? [TIME, ['-v', process.execPath, entry, ...args]] : [process.execPath, [entry, ...args]];
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const env = { ...process.env };
    if (fromSource) env.AABIFY_CLI_FROM_SOURCE = '1';
    else delete env.AABIFY_CLI_FROM_SOURCE;
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let polled = 0;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const poller = useTime || child.pid === undefined ? undefined : pollPeakRss(child.pid, (kb) => (polled = Math.max(polled, kb)));
    child.on('error', reject);
    child.on('close', (status) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (poller) clearInterval(poller);
      const fromTime = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const sys = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const cpuMs = user && sys ? (Number(user[1]) + Number(sys[1])) * 1000 : undefined;
      resolvePromise({ wallMs, cpuMs, peakRssKb: fromTime ? Number(fromTime[1]) : polled, status, stdout, stderr });
    });
  });
}

function engineMs(stdout: string): number | undefined {
  try {
    const body: unknown = JSON.parse(stdout);
    if (typeof body !== 'object' || body === null || !('report' in body)) return undefined;
    const report: unknown = body.report;
    if (typeof report !== 'object' || report === null || !('durations' in report)) return undefined;
    const durations: unknown = report.durations;
    if (typeof durations !== 'object' || durations === null || !('total' in durations)) return undefined;
    return typeof durations.total === 'number' ? durations.total : undefined;
  } catch {
    return undefined;
  }
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const pad = (s: string, n: number): string => s.padEnd(n);
const lpad = (s: string, n: number): string => s.padStart(n);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runs = Number(argValue(args, '--runs') ?? 1);
  const only = argValue(args, '--only');
  const base = argValue(args, '--base') ?? 'npm-apidemos-5';
  const sizeMb = Number(argValue(args, '--size-mb') ?? 100);
  fromSource = args.includes('--from-source');
  if (!fromSource) buildCli();
  const outDir = join(BENCH_OUT, 'aab');
  mkdirSync(outDir, { recursive: true });

  const inputs: string[] = [];
  if (only !== 'corpus') {
    const grown = defaultGrownPath(base, sizeMb);
    if (!existsSync(grown)) console.log(`growing ${base} to ${sizeMb} MB -> ${grown}`);
    inputs.push(growApk({ base, sizeMb, out: grown }));
  }
  if (only !== 'grown') {
    const corpus = listCorpus();
    if (!corpus) console.log('corpus not found (set AABIFY_CORPUS): corpus rows skipped');
    for (const apk of corpus ?? []) inputs.push(apk.path);
  }

  const startup = await measure(['--version']);
  console.log(`rss via ${existsSync(TIME) ? '/usr/bin/time -v' : '/proc polling'}; runs per file: ${runs} (best wall time kept)`);
  const [load1] = loadavg();
  console.log(`load average ${load1.toFixed(1)} on ${cpus().length} cores${load1 > cpus().length ? ' (busy machine: wall times are inflated, cpu s is the steadier figure)' : ''}`);
  console.log(`CLI measured: ${fromSource ? 'bin/aabify.js on the TypeScript sources through tsx (--from-source)' : `esbuild bundle ${BUNDLE.slice(REPO.length + 1)}, rebuilt before measuring`}`);
  const cpu = startup.cpuMs === undefined ? '' : `, cpu ${startup.cpuMs.toFixed(0)} ms`;
  console.log(`startup (aabify --version): ${startup.wallMs.toFixed(0)} ms wall${cpu}, peak RSS ${(startup.peakRssKb / 1024).toFixed(0)} MB\n`);
  console.log(`${pad('file', 44)}${lpad('MB', 8)}${lpad('wall s', 9)}${lpad('MB/s', 8)}${lpad('cpu s', 8)}${lpad('engine s', 10)}${lpad('RSS MB', 8)}  result`);

  let grownResult: { wallMs: number; rssMb: number } | undefined;
  for (const input of inputs) {
    const mb = statSync(input).size / 1e6;
    const out = join(outDir, `${basename(input, '.apk')}.aab`);
    let best: Measure | undefined;
    for (let r = 0; r < runs; r++) {
      const m = await measure(['convert', '--local', input, '-o', out, '--overwrite', '--json']);
      if (!best || m.wallMs < best.wallMs || m.status !== 0) best = m;
      if (m.status !== 0) break;
    }
    if (!best) continue;
    const engine = engineMs(best.stdout);
    const failure = best.status === 0 ? 'ok' : `FAILED (exit ${best.status}): ${best.stderr.split('\n').find((l) => l.startsWith('erro:')) ?? ''}`;
    const rssMb = best.peakRssKb / 1024;
    console.log(
      `${pad(basename(input), 44)}${lpad(mb.toFixed(1), 8)}${lpad((best.wallMs / 1000).toFixed(2), 9)}${lpad((mb / (best.wallMs / 1000)).toFixed(1), 8)}` +
        `${lpad(best.cpuMs === undefined ? '-' : (best.cpuMs / 1000).toFixed(2), 8)}` +
        `${lpad(engine === undefined ? '-' : (engine / 1000).toFixed(2), 10)}${lpad(rssMb.toFixed(0), 8)}  ${failure}`,
    );
    if (inputs[0] === input && only !== 'corpus') grownResult = { wallMs: best.wallMs, rssMb };
    rmSync(out, { force: true });
  }
  if (!fromSource && cliMode() === 'source') {
    console.log('\nnote: sources changed during the run; the figures are of the bundle built at the start');
  }
  if (grownResult) {
    const time = grownResult.wallMs < 2000 ? 'met' : 'MISSED';
    const rss = grownResult.rssMb < 200 ? 'met' : 'MISSED';
    console.log(`\ntargets for the ${sizeMb} MB APK: wall < 2 s ${time} (${(grownResult.wallMs / 1000).toFixed(2)} s), peak RSS < 200 MB ${rss} (${grownResult.rssMb.toFixed(0)} MB)`);
  }
}

await main();
