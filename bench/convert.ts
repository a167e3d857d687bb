/**
 * Conversion benchmark: spawns `aabify convert --local` (the real CLI, as a user runs it) on a
 * ~100 MB grown APK and on every corpus APK, and prints wall time, MB/s and peak RSS.
 * Targets: the 100 MB APK in under 2 s with a peak RSS under 200 MB.
 *
 *   npx tsx bench/convert.ts [--runs 3] [--only grown|corpus] [--base npm-apidemos-5] [--size-mb 100]
 *
 * Peak RSS comes from `/usr/bin/time -v` when present, else from polling /proc/<pid>/status.
 * The CLI runs from its TypeScript sources (tsx), so each figure includes that start-up; the
 * `startup` line (`aabify --version`) shows how much of it that is.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { listCorpus } from '../packages/converter/test/helpers/corpus.js';
import { BENCH_OUT, defaultGrownPath, growApk } from './grow-apk.js';

const REPO = resolve(BENCH_OUT, '..', '..');
const BIN = join(REPO, 'packages', 'cli', 'bin', 'aabify.js');
const TIME = '/usr/bin/time';

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
  const [cmd, argv] = useTime ? [TIME, ['-v', process.execPath, BIN, ...args]] : [process.execPath, [BIN, ...args]];
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { env: { ...process.env, AABIFY_CLI_FROM_SOURCE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  console.log(`startup (aabify --version): ${startup.wallMs.toFixed(0)} ms, peak RSS ${(startup.peakRssKb / 1024).toFixed(0)} MB\n`);
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
  if (grownResult) {
    const time = grownResult.wallMs < 2000 ? 'met' : 'MISSED';
    const rss = grownResult.rssMb < 200 ? 'met' : 'MISSED';
    console.log(`\ntargets for the ${sizeMb} MB APK: wall < 2 s ${time} (${(grownResult.wallMs / 1000).toFixed(2)} s), peak RSS < 200 MB ${rss} (${grownResult.rssMb.toFixed(0)} MB)`);
  }
}

await main();
