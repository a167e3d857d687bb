/**
 * What the conversion benches share: one process measured whole (wall time, CPU time, peak RSS),
 * the CLI bundle of the working tree or of an older git revision, and the load average line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_OUT } from './grow-apk.js';

export const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
export { BENCH_OUT };
export const CLI_DIR = join(REPO, 'packages', 'cli');
export const BUNDLE = join(CLI_DIR, 'dist', 'aabify.js');
const TIME = '/usr/bin/time';

export interface Measure {
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

/**
 * Runs `node <script> ...args` as a new process and measures it: peak RSS and CPU from
 * `/usr/bin/time -v` when present, else peak RSS from /proc polling (and no CPU time).
 */
export function measureNode(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Measure> {
  return measureCommand(process.execPath, [script, ...args], env);
}

/** Runs any command as a new process and measures it, as measureNode does (e.g. `java -jar bundletool.jar`). */
export function measureCommand(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Measure> {
  const useTime = existsSync(TIME);
  const [cmd, argv] = useTime ? [TIME, ['-v', command, ...args]] : [command, args];
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
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

/** `load average 3.1 4.0 5.2 on 2 cores`, with a warning when the machine is busier than its cores. */
/**
 * What starting Node alone costs here (`node -e 0`, best of 5). When NODE_EXTRA_CA_CERTS is set
 * (this machine's network proxy sets it), every Node process reads that CA bundle before running
 * any code: the line gives the start without it too, the figure a user's process pays.
 */
export function nodeStartLine(): string {
  const best = (env: NodeJS.ProcessEnv): number => {
    let ms = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = process.hrtime.bigint();
      spawnSync(process.execPath, ['-e', '0'], { env });
      ms = Math.min(ms, Number(process.hrtime.bigint() - started) / 1e6);
    }
    return ms;
  };
  const now = best(process.env);
  if (!process.env.NODE_EXTRA_CA_CERTS) return `Node's own start (node -e 0): ${now.toFixed(0)} ms`;
  const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env;
  return `Node's own start (node -e 0): ${now.toFixed(0)} ms here, ${best(without).toFixed(0)} ms without NODE_EXTRA_CA_CERTS (set here: every Node process, each measured one included, loads that CA bundle at start)`;
}

export function loadLine(): string {
  const [l1, l5, l15] = loadavg();
  const busy = l1 > cpus().length ? ' (busy machine: wall times are inflated; CPU time is the steadier figure)' : '';
  return `load average ${l1.toFixed(1)} ${l5.toFixed(1)} ${l15.toFixed(1)} on ${cpus().length} cores${cpuPressure()}${busy}`;
}

/**
 * Linux's CPU pressure (`/proc/pressure/cpu`, share of time some task waited for a CPU, over 10
 * and 60 s), as text to append to a line; empty where the kernel does not give it. On a shared
 * VM it shows other tenants' load, which the load average (this machine's tasks only) does not.
 */
function cpuPressure(): string {
  try {
    const some = /^some avg10=([\d.]+) avg60=([\d.]+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return some ? `, CPU pressure ${some[1]} % (10 s) ${some[2]} % (60 s)` : '';
  } catch {
    return '';
  }
}

/** Builds the working tree's CLI bundle (`--release`: what `npm run pack:cli` ships). */
export function buildCli(release = true): string {
  const r = spawnSync(process.execPath, ['build.mjs', ...(release ? ['--release'] : [])], { cwd: CLI_DIR, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`building the CLI bundle failed (exit ${r.status})`);
  return BUNDLE;
}

function git(args: string[]): string {
  const r = spawnSync('git', args, { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/**
 * The release CLI bundle of an older revision, built from `git archive` of its sources in
 * <tmpdir>/aabify-bench-rev2-<commit>/ (kept for later runs; outside the repository, so the linter
 * never sees it). Its node_modules links to the working tree's
 * packages, except @aabify/*, which link to the revision's own sources.
 */
export function buildRevisionCli(rev: string): { commit: string; bundle: string } {
  const commit = git(['rev-parse', '--verify', `${rev}^{commit}`]);
  const dir = join(tmpdir(), `aabify-bench-rev2-${commit.slice(0, 12)}`);
  const bundle = join(dir, 'packages', 'cli', 'dist', 'aabify.js');
  if (existsSync(bundle)) return { commit, bundle };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = spawnSync('sh', ['-c', `git archive ${commit} packages/cli packages/converter packages/shared scripts package.json tsconfig.base.json | tar -x -C '${dir}'`], { cwd: REPO, stdio: 'inherit' });
  if (tar.status !== 0) throw new Error(`git archive ${commit} failed`);
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@aabify'), { recursive: true });
  for (const name of readdirSync(join(REPO, 'node_modules'))) {
    if (name !== '@aabify' && name !== '.bin') symlinkSync(join(REPO, 'node_modules', name), join(modules, name));
  }
  for (const pkg of ['cli', 'converter', 'shared']) {
    symlinkSync(join(dir, 'packages', pkg), join(modules, '@aabify', pkg));
    // A package's own nested dependencies (the CLI's undici 7 beside the root's undici 6): without
    // them the revision's bundle was built with other versions than the working tree's, 190 KB
    // smaller, and every before/after compared more than the change.
    const nested = join(REPO, 'packages', pkg, 'node_modules');
    if (existsSync(nested)) symlinkSync(nested, join(dir, 'packages', pkg, 'node_modules'));
  }
  const built = spawnSync(process.execPath, ['build.mjs', '--release'], { cwd: join(dir, 'packages', 'cli'), stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`building the CLI of ${commit} failed`);
  return { commit, bundle };
}

/** SHA-256 of a file, hex (read whole: the outputs compared here are at most a few hundred MB). */
export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function argValue(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** `cp` of the same file (GNU cp: copy_file_range, the kernel copying page to page), best of `runs`. */
export function measureCp(input: string, runs: number): { wallMs: number; cpuMs?: number } {
  const out = join(BENCH_OUT, 'cp-copy.bin');
  let best: { wallMs: number; cpuMs?: number } | undefined;
  for (let r = 0; r < Math.max(3, runs); r++) {
    rmSync(out, { force: true });
    const started = process.hrtime.bigint();
    const res = existsSync('/usr/bin/time') ? spawnSync('/usr/bin/time', ['-f', '%U %S', 'cp', input, out], { encoding: 'utf8' }) : spawnSync('cp', [input, out]);
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const m = typeof res.stderr === 'string' ? /([\d.]+) ([\d.]+)\s*$/.exec(res.stderr) : null;
    const cpuMs = m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined;
    if (!best || wallMs < best.wallMs) best = { wallMs, cpuMs };
  }
  rmSync(out, { force: true });
  return best!;
}
