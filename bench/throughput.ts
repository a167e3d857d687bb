/**
 * The service under a customer load: conversions per minute, what the service costs beyond the
 * engine, its memory and its latency while busy. One server process (`ROLE=all`, the default
 * deployment; or `--workers N` worker processes beside a web one) on a bench-owned embedded
 * Postgres; `--users` customers sign up and each submits `--each` real corpus APKs at once over
 * HTTP (multipart, as the dashboard and the CLI do), `--repeat` times.
 *
 *   npx tsx bench/throughput.ts [--users 20] [--each 5] [--repeat 3] [--files 12] [--workers 0]
 *                               [--max-concurrent N] [--min-kb 30] [--max-kb 4096] [--idle-after 15]
 *                               [--count-queries] [--db-activity] [--cpu-prof] [--server-node-args "--flag ..."]
 *
 * `--count-queries` prints the database statements per conversion by kind (the database logs
 * each one: its CPU figure is then not comparable); `--db-activity` what the application pool's
 * connections were doing, sampled (bench/dbActivity.ts); `--cpu-prof` prints where the server
 * processes' CPU went (V8 profiles of every thread, bench/cpuProfile.ts). AABIFY_BENCH_SERVER_DIST
 * runs a bundle built before instead of the working tree's (bench/serverProcess.ts).
 *
 * Printed per repetition: conversions per minute (first upload sent → last completion seen) and
 * per core; the server's CPU seconds per conversion (its process, worker threads included,
 * /proc) against the engine's own CPU time for the same files, converted in this process before
 * the load (the "service overhead" is the difference); the database's CPU per conversion; the
 * server's RSS after the repetition and its peak (VmHWM), and what held it (from /metrics, read
 * every second: the main thread's V8 heap and external memory, the engine threads alive and their
 * heaps); `/api/health` and status-read latency
 * (p50/p99/max) probed every 100 ms during the load by a process of its own (latencyProbe.ts); credits exact (each customer charged one
 * per completed conversion). After the last repetition, the RSS once the server has been idle
 * `--idle-after` seconds. At the end, each figure against its target and the figure before the
 * work on the service (conversions/min, overhead, peak RSS, growth over the rounds, the whole
 * run's p99s): the ratio and whether it is met.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync, readlinkSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertApk } from '../packages/converter/src/index.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded.js';
import { freePort } from '../packages/server/test/helpers/postgres.js';
import { summariseProfiles } from './cpuProfile.js';
import { startLatencyProbe, type LatencySample } from './latencyProbe.js';
import { statementCounter, statementLines } from './dbStatements.js';
import { sampleDbActivity, type DbActivity } from './dbActivity.js';
import { benchServerEnv, callApi, freshDatabase, serverBundle, serverNodeVersion, startServerProcess, stopServerProcesses } from './serverProcess.js';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CORPUS = process.env.AABIFY_CORPUS ?? join(REPO, '..', 'shared', 'corpus');
const TICKS = 100; // USER_HZ on Linux

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const users = Number(arg('users', '20'));
const each = Number(arg('each', '5'));
const repeat = Number(arg('repeat', '3'));
const fileCount = Number(arg('files', '12'));
const workerProcesses = Number(arg('workers', '0'));
const maxConcurrent = process.argv.includes('--max-concurrent') ? Number(arg('max-concurrent', '3')) : undefined;
const minBytes = Number(arg('min-kb', '30')) * 1024;
const maxBytes = Number(arg('max-kb', '4096')) * 1024;
const countQueries = process.argv.includes('--count-queries');
/** Samples what the application pool's connections do during each round (bench/dbActivity.ts). */
const dbActivity = process.argv.includes('--db-activity');
const cpuProf = process.argv.includes('--cpu-prof');
const idleAfter = Number(arg('idle-after', '15'));
/** Node flags for the server processes only (e.g. heap sizing), so the engine's own figure in this process stays comparable. */
const serverNodeArgs = arg('server-node-args', '').split(' ').filter(Boolean);
const METRICS_TOKEN = randomBytes(16).toString('hex');

/** The server's memory figures from its /metrics (the main process's; a worker process's with `url` of its own). */
async function memoryFigures(url: string): Promise<{ mainHeap: number; mainHeapUsed: number; mainExternal: number; threads: number; threadHeaps: number; threadExternal: number; loopDelayMax: number; poolWaiting: number }> {
  const text = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
  const value = (name: string, label = ''): number => {
    const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && l.includes(label));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : Number.NaN;
  };
  return {
    mainHeap: value('aabify_nodejs_heap_size_total_bytes'),
    mainHeapUsed: value('aabify_nodejs_heap_size_used_bytes'),
    mainExternal: value('aabify_nodejs_external_memory_bytes'),
    threads: value('aabify_worker_threads'),
    threadHeaps: value('aabify_worker_heap_bytes', 'kind="total"'),
    threadExternal: value('aabify_worker_heap_bytes', 'kind="external"'),
    // The longest the main thread's event loop was held since the previous read (prom-client resets it at each read).
    loopDelayMax: value('aabify_nodejs_eventloop_lag_max_seconds') * 1000,
    poolWaiting: value('aabify_db_pool_connections', 'state="waiting"'),
  };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** The application pool's wait histogram from /metrics: acquisitions so far at or under each bucket (seconds). */
async function poolWaits(url: string): Promise<Map<number, number>> {
  const text = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
  const buckets = new Map<number, number>();
  for (const m of text.matchAll(/^aabify_db_pool_wait_seconds_bucket\{(?:[^}]*,)?le="([^"]+)"[^}]*\} (\S+)$/gm)) buckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  return buckets;
}

/** What the pool's waits during one round looked like: how many, and the bucket holding the 99th percentile. */
function poolWaitLine(before: Map<number, number>, after: Map<number, number>, waitingMost: number): string {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const inRound = bounds.map((le) => (after.get(le) ?? 0) - (before.get(le) ?? 0));
  const total = inRound.at(-1) ?? 0;
  const p99 = bounds[inRound.findIndex((n) => n >= total * 0.99)];
  const over10ms = total - (inRound[bounds.indexOf(0.01)] ?? total);
  const bound = (le: number | undefined) => (le === undefined ? '?' : le === Infinity ? '> 5 s' : `≤ ${le * 1000} ms`);
  return `${total} queries took a connection, p99 wait ${bound(p99)}, ${over10ms} waited over 10 ms; at most ${waitingMost} waiting at once (read once a second)`;
}

/** The corpus APKs in the size range, spread over it (smallest to largest), `fileCount` of them. */
function pickFiles(): Array<{ name: string; bytes: Buffer }> {
  const all = readdirSync(CORPUS)
    .filter((n) => n.endsWith('.apk'))
    .map((name) => ({ name, size: statSync(join(CORPUS, name)).size }))
    .filter((f) => f.size >= minBytes && f.size <= maxBytes)
    .sort((a, b) => a.size - b.size);
  if (all.length === 0) throw new Error(`no corpus APK between ${minBytes} and ${maxBytes} bytes in ${CORPUS}`);
  const step = Math.max(1, all.length / fileCount);
  const picked = Array.from({ length: Math.min(fileCount, all.length) }, (_, i) => all[Math.floor(i * step)]!);
  return picked.map((f) => ({ name: f.name, bytes: readFileSync(join(CORPUS, f.name)) }));
}

/** CPU seconds (user + system) of a process, its threads included. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/**
 * Starts a new peak (VmHWM) at the current RSS (Linux's clear_refs, value 5), so a peak belongs to
 * one phase: sign-ups hash passwords (scrypt, 64 MiB each while it runs), the load converts.
 * False where the kernel refuses.
 */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function memoryKb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** Every process whose working directory is the cluster's data folder (the postgres server and its backends). */
function clusterPids(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dataDir) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

function clusterCpu(dataDir: string): number {
  let total = 0;
  for (const pid of clusterPids(dataDir)) {
    try {
      total += cpuSeconds(pid);
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** The probes' times, fastest first. */
const sortedMs = (samples: LatencySample[]): number[] => samples.map((x) => x.ms).sort((a, b) => a - b);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Percentiles of the probes, and (given the load's start) when the three slowest were sent (seconds after the first upload). */
function latency(label: string, samples: LatencySample[], loadStartedAt?: number): string {
  const s = sortedMs(samples);
  const slowest = loadStartedAt === undefined ? [] : [...samples].sort((a, b) => b.ms - a.ms).slice(0, 3).map((x) => `+${((x.at - loadStartedAt) / 1000).toFixed(1)}`);
  return `${label} p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms, max ${(s.at(-1) ?? Number.NaN).toFixed(0)} ms (${s.length} probes${slowest.length ? `; slowest at ${slowest.join(', ')} s` : ''})`;
}

/** The service's figures before the work on it (the same load, 2026-11: bench/README.md) and the goals set then. */
const BEFORE = { perMinute: 60, peakMb: 505 } as const;
const GOALS = { perMinute: 240, overheadMs: 250, peakMb: 300, healthP99Ms: 200, statusP99Ms: 100 } as const;

interface RoundFigures {
  perMinute: number;
  overheadMs: number;
  /** The highest peak RSS of the server processes during the load (MB). */
  peakMb: number;
  /** RSS of the server processes together after the round (MB). */
  rssAfterMb: number;
  statusP99Ms: number;
}

const p99 = (samples: LatencySample[]): number => percentile(sortedMs(samples), 99);

/** Each figure against its goal (and the figure before, where there was one): the ratio and whether it is met. */
function targetLines(rounds: RoundFigures[], run: { health: LatencySample[]; statusReads: LatencySample[] }): string[] {
  const ratio = (value: number, goal: number, atLeast = false) => `${(value / goal).toFixed(2)}× the goal: ${(atLeast ? value >= goal : value < goal) ? 'met' : 'NOT met'}`;
  const least = Math.min(...rounds.map((r) => r.perMinute));
  const overhead = Math.max(...rounds.map((r) => r.overheadMs));
  const peak = Math.max(...rounds.map((r) => r.peakMb));
  const after = rounds.map((r) => r.rssAfterMb);
  const growth = after.at(-1)! - after[0]!;
  const health = p99(run.health);
  const status = p99(run.statusReads);
  const slowRounds = rounds.filter((r) => r.statusP99Ms >= GOALS.statusP99Ms).length;
  return [
    `conversions/min   slowest round ${least.toFixed(0)}: ${(least / BEFORE.perMinute).toFixed(1)}× the ${BEFORE.perMinute} before; goal ≥ ${GOALS.perMinute}, ${ratio(least, GOALS.perMinute, true)}`,
    `service overhead  worst round ${overhead.toFixed(0)} ms; goal < ${GOALS.overheadMs} ms, ${ratio(overhead, GOALS.overheadMs)}`,
    `peak RSS          highest ${peak.toFixed(0)} MB: ${(peak / BEFORE.peakMb).toFixed(2)}× the ${BEFORE.peakMb} MB before; goal < ${GOALS.peakMb} MB, ${ratio(peak, GOALS.peakMb)}`,
    `RSS after rounds  ${after.map((v) => v.toFixed(0)).join(', ')} MB: ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB from the first to the last (${rounds.length > 1 && growth <= after[0]! * 0.1 ? 'flat' : rounds.length > 1 ? 'GROWING' : 'one round: run --repeat 3 or more'})`,
    `/api/health p99   whole run ${health.toFixed(0)} ms; goal < ${GOALS.healthP99Ms} ms, ${ratio(health, GOALS.healthP99Ms)}`,
    `status-read p99   whole run ${status.toFixed(0)} ms; goal < ${GOALS.statusP99Ms} ms, ${ratio(status, GOALS.statusP99Ms)}; rounds at or over it: ${slowRounds} of ${rounds.length}`,
  ];
}

/** The engine's CPU seconds for each file, converted here one after the other (after one warm-up). */
async function engineCpu(files: Array<{ name: string; bytes: Buffer }>, dir: string): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  const first = files[0]!;
  await convertApk(join(CORPUS, first.name), join(dir, 'warmup.aab'), { overwrite: true });
  for (const f of files) {
    const before = process.cpuUsage();
    await convertApk(join(CORPUS, f.name), join(dir, `${f.name}.aab`), { overwrite: true });
    const used = process.cpuUsage(before);
    byName.set(f.name, (used.user + used.system) / 1e6);
  }
  return byName;
}

interface Customer {
  token: string;
  id: string;
}

/** Customers sign up from addresses of their own (the server trusts the bench's X-Forwarded-For): one address may register only so many accounts. */
async function signUpCustomers(url: string, adminToken: string, round: number): Promise<Customer[]> {
  const customers: Customer[] = [];
  for (let i = 0; i < users; i++) {
    const email = `cliente-${round}-${randomBytes(3).toString('hex')}-${i}@bench.example`;
    const from = { 'x-forwarded-for': `10.${round % 256}.${i >> 8}.${i & 255}` };
    const r = await callApi<{ token: string; user: { id: string } }>(url, 'POST', '/auth/register', undefined, { email, password: 'senha-do-bench-1', acceptTerms: true }, from);
    await callApi(url, 'PATCH', `/admin/users/${r.user.id}/credits`, adminToken, { credits: each, operation: 'set' });
    customers.push({ token: r.token, id: r.user.id });
  }
  return customers;
}

async function main(): Promise<void> {
  const files = pickFiles();
  const work = await mkdtemp(join(tmpdir(), 'aabify-throughput-'));
  // Run as root, the embedded Postgres runs as the postgres user, who must be able to enter it.
  await chmod(work, 0o755);
  const pgDir = join(work, 'pg');
  const statements = countQueries ? statementCounter() : undefined;
  const cluster = await startEmbeddedPostgres({ dir: pgDir, port: await freePort(), password: randomBytes(12).toString('hex'), ...(statements ? { logger: statements.logger } : {}) });
  // AABIFY_BENCH_PROFILES keeps the profiles there (for reading them again), else they go with the run's folder.
  const profiles = process.env.AABIFY_BENCH_PROFILES ?? join(work, 'profiles');
  const nodeArgs = [...(cpuProf ? ['--cpu-prof', '--cpu-prof-dir', profiles] : []), ...serverNodeArgs];
  const procs: ChildProcess[] = [];
  try {
    const engine = await engineCpu(files, work);
    const totalMb = files.reduce((n, f) => n + f.bytes.length, 0) / 1e6;
    console.log(
      `${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}, server on Node ${serverNodeVersion()}; ${users} customers × ${each} conversions at once, ` +
        `${files.length} corpus APKs of ${(files[0]!.bytes.length / 1024).toFixed(0)} KB – ${(files.at(-1)!.bytes.length / 1e6).toFixed(1)} MB (${totalMb.toFixed(1)} MB together); ` +
        `${workerProcesses ? `web + ${workerProcesses} worker process(es)` : 'one server process'} of ${serverBundle()}`,
    );
    console.log(`engine alone, one after the other in this process: ${[...engine.values()].reduce((a, b) => a + b, 0).toFixed(2)} s CPU for the ${files.length} files`);

    const databaseUrl = await freshDatabase(cluster.url);
    await statements?.watch(databaseUrl, cluster.url);
    // Behind a proxy as deployed (compose.yaml): each customer's address is its own.
    const env = { ...benchServerEnv(databaseUrl, work), TRUST_PROXY: '1', METRICS_TOKEN };
    const main = await startServerProcess({ ...env, ...(workerProcesses ? { ROLE: 'web' } : {}), PORT: String(await freePort()), DATA_DIR: join(work, 'server') }, nodeArgs);
    procs.push(main.child);
    for (let i = 0; i < workerProcesses; i++) {
      procs.push((await startServerProcess({ ...env, ROLE: 'worker', PORT: String(await freePort()), DATA_DIR: join(work, `worker-${i}`) }, nodeArgs)).child);
    }
    const serverPids = procs.map((p) => p.pid!);
    const { token: adminToken } = await callApi<{ token: string }>(main.url, 'POST', '/setup/initialize', undefined, { email: 'bench@example.com', password: 'senha-do-bench-1', name: 'Bench' });
    if (maxConcurrent !== undefined) await callApi(main.url, 'PUT', '/admin/config/conversions.maxConcurrent', adminToken, { value: maxConcurrent });
    const settings = await callApi<{ configs: Array<{ key: string; value: unknown }> }>(main.url, 'GET', '/admin/config', adminToken);
    const setting = (key: string) => settings.configs.find((c) => c.key === key)?.value ?? 'padrão';
    console.log(`settings: maxConcurrent ${setting('conversions.maxConcurrent')}, concurrentPerUser ${setting('conversions.concurrentPerUser')}, maxActivePerUser ${setting('conversions.maxActivePerUser')}`);

    // Every round's probes together: the run's percentiles beside each round's.
    const runProbes = { health: [] as LatencySample[], statusReads: [] as LatencySample[] };
    const rounds: RoundFigures[] = [];
    for (let round = 1; round <= repeat; round++) {
      const peaksApart = serverPids.every(resetPeak);
      const customers = await signUpCustomers(main.url, adminToken, round);
      const signUpPeaks = serverPids.map((pid) => memoryKb(pid).peak);
      if (peaksApart) serverPids.forEach(resetPeak);
      statements?.take();
      const cpuBefore = serverPids.reduce((n, pid) => n + cpuSeconds(pid), 0);
      const dbBefore = clusterCpu(join(pgDir, 'pg'));
      // Latency from a process of its own; the memory figures from here, once a second.
      const latencyProbe = startLatencyProbe(main.url);
      let probeTarget: { token: string; id: string } | undefined;
      const heldMax = { mainHeap: 0, mainHeapUsed: 0, mainExternal: 0, threads: 0, threadHeaps: 0, threadExternal: 0, loopDelayMax: 0, poolWaiting: 0 };
      const poolBefore = await poolWaits(main.url);
      const activity: DbActivity | undefined = dbActivity ? sampleDbActivity(databaseUrl) : undefined;
      let probing = true;
      const memoryReads = (async () => {
        while (probing) {
          const m = await memoryFigures(main.url);
          for (const k of Object.keys(heldMax) as Array<keyof typeof heldMax>) heldMax[k] = Math.max(heldMax[k], m[k]);
          await new Promise((r) => setTimeout(r, 1000));
        }
      })();

      const started = performance.now();
      const loadStartedAt = Date.now();
      let engineSeconds = 0;
      const submitted = await Promise.all(
        customers.flatMap((c, ci) =>
          Array.from({ length: each }, async (_, k) => {
            const f = files[(ci * each + k) % files.length]!;
            engineSeconds += engine.get(f.name)!;
            const form = new FormData();
            form.append('apk', new Blob([new Uint8Array(f.bytes)]), f.name);
            const r = await callApi<{ conversionId: string }>(main.url, 'POST', '/conversion/convert', c.token, form);
            if (!probeTarget) latencyProbe.target((probeTarget = { token: c.token, id: r.conversionId }));
            return { customer: c, id: r.conversionId };
          }),
        ),
      );
      const uploadedAt = performance.now();
      // Completion seen as a customer sees it: each customer's history, once a second.
      const open = new Map(customers.map((c) => [c.id, new Set(submitted.filter((s) => s.customer === c).map((s) => s.id))]));
      let failed = 0;
      const failedOf = new Map<string, number>();
      const ended: Array<{ queuedAt: number; startedAt: number; completedAt: number }> = [];
      while ([...open.values()].some((s) => s.size > 0)) {
        for (const c of customers) {
          const pending = open.get(c.id)!;
          if (pending.size === 0) continue;
          const page = await callApi<{ conversions: Array<{ _id: string; status: string; queuedAt: string | null; createdAt: string; processingStartedAt: string | null; completedAt: string | null }> }>(
            main.url,
            'GET',
            `/conversion/history?limit=${each + 5}`,
            c.token,
          );
          for (const row of page.conversions) {
            if (!pending.has(row._id)) continue;
            if (row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled') {
              pending.delete(row._id);
              if (row.processingStartedAt && row.completedAt) {
                ended.push({ queuedAt: Date.parse(row.queuedAt ?? row.createdAt), startedAt: Date.parse(row.processingStartedAt), completedAt: Date.parse(row.completedAt) });
              }
              if (row.status !== 'completed') {
                failed++;
                failedOf.set(c.id, (failedOf.get(c.id) ?? 0) + 1);
              }
            }
          }
        }
        if ([...open.values()].some((s) => s.size > 0)) await new Promise((r) => setTimeout(r, 1000));
      }
      const seconds = (performance.now() - started) / 1000;
      probing = false;
      await memoryReads;
      const { health, statusReads } = await latencyProbe.stop();
      runProbes.health.push(...health);
      runProbes.statusReads.push(...statusReads);
      const conversions = submitted.length;
      const serverCpu = serverPids.reduce((n, pid) => n + cpuSeconds(pid), 0) - cpuBefore;
      const dbCpu = clusterCpu(join(pgDir, 'pg')) - dbBefore;
      // One credit per completed conversion; a failed one gives its credit back.
      let creditsExact = true;
      for (const c of customers) {
        const me = await callApi<{ credits: { available: number; reserved: number } }>(main.url, 'GET', '/auth/me', c.token);
        if (me.credits.available !== (failedOf.get(c.id) ?? 0) || me.credits.reserved !== 0) creditsExact = false;
      }
      const memory = serverPids.map(memoryKb);
      // How busy the conversion slots were between the first start and the last end: idle slots
      // while conversions waited are time the service lost outside the engine.
      const firstStart = Math.min(...ended.map((e) => e.startedAt));
      const lastEnd = Math.max(...ended.map((e) => e.completedAt));
      const busy = ended.reduce((n, e) => n + (e.completedAt - e.startedAt), 0);
      const slots = Number(setting('conversions.maxConcurrent')) || 3;
      const waited = ended.reduce((n, e) => n + (e.startedAt - e.queuedAt), 0) / Math.max(1, ended.length);
      const running = busy / Math.max(1, ended.length);
      const perConversion = (n: number) => ((n / conversions) * 1000).toFixed(0);
      console.log(`\nround ${round}: ${conversions} conversions (${failed} failed) in ${seconds.toFixed(1)} s — uploads took ${((uploadedAt - started) / 1000).toFixed(1)} s`);
      console.log(`  throughput        ${((conversions / seconds) * 60).toFixed(1)} conversions/min, ${((conversions / seconds) * 60 / cpus().length).toFixed(1)} per core`);
      console.log(
        `  CPU per conversion server ${perConversion(serverCpu)} ms (engine alone ${perConversion(engineSeconds)} ms → service overhead ${perConversion(serverCpu - engineSeconds)} ms), database ${perConversion(dbCpu)} ms`,
      );
      console.log(
        `  slots             ${((busy / Math.max(1, (lastEnd - firstStart) * slots)) * 100).toFixed(0)} % of ${slots} busy; a conversion waited ${(waited / 1000).toFixed(2)} s in line and ran ${(running / 1000).toFixed(2)} s on average`,
      );
      console.log(
        `  server memory     ${memory.map((m) => `RSS ${(m.rss / 1024).toFixed(0)} MB, peak ${(m.peak / 1024).toFixed(0)} MB`).join('; ')} ${peaksApart ? 'during the load' : 'since the start'}` +
          (peaksApart ? `; peak while the ${users} customers signed up before it ${signUpPeaks.map((kb) => `${(kb / 1024).toFixed(0)} MB`).join('; ')}` : ''),
      );
      const held = await memoryFigures(main.url);
      console.log(
        `  held (most → now) main thread heap ${mb(heldMax.mainHeap)} → ${mb(held.mainHeap)} MB (used ${mb(heldMax.mainHeapUsed)} → ${mb(held.mainHeapUsed)}), external ${mb(heldMax.mainExternal)} → ${mb(held.mainExternal)} MB; ` +
          `engine threads ${heldMax.threads} → ${held.threads}, their heaps ${mb(heldMax.threadHeaps)} → ${mb(held.threadHeaps)} MB, external ${mb(heldMax.threadExternal)} → ${mb(held.threadExternal)} MB; ` +
          `the main thread's event loop held up to ${heldMax.loopDelayMax.toFixed(0)} ms`,
      );
      console.log(`  latency           ${latency('/api/health', health, loadStartedAt)}; ${latency('status reads', statusReads, loadStartedAt)}`);
      console.log(`  database pool     ${poolWaitLine(poolBefore, await poolWaits(main.url), heldMax.poolWaiting)} (main process)`);
      if (activity) for (const line of await activity.stop()) console.log(`  ${line}`);
      console.log(`  credits           ${creditsExact ? 'exact (one per completed conversion, none reserved)' : 'NOT exact'}; load average ${loadavg()[0]!.toFixed(1)}`);
      if (statements) for (const line of statementLines(statements.take(), conversions)) console.log(`  ${line}`);
      rounds.push({
        perMinute: (conversions / seconds) * 60,
        overheadMs: ((serverCpu - engineSeconds) / conversions) * 1000,
        peakMb: Math.max(...memory.map((m) => m.peak)) / 1024,
        rssAfterMb: memory.reduce((n, m) => n + m.rss, 0) / 1024,
        statusP99Ms: p99(statusReads),
      });
    }
    if (repeat > 1) console.log(`\nall ${repeat} rounds: latency ${latency('/api/health', runProbes.health)}; ${latency('status reads', runProbes.statusReads)}`);
    if (idleAfter > 0) {
      await new Promise((r) => setTimeout(r, idleAfter * 1000));
      const held = await memoryFigures(main.url);
      console.log(
        `\nidle ${idleAfter} s after the last round: ${serverPids.map(memoryKb).map((m) => `RSS ${(m.rss / 1024).toFixed(0)} MB`).join('; ')}; ` +
          `main thread heap ${mb(held.mainHeap)} MB, engine threads ${held.threads} (heaps ${mb(held.threadHeaps)} MB)`,
      );
    }
    const defaultLoad = users === 20 && each === 5 && fileCount === 12 && maxConcurrent === undefined;
    console.log(`\nagainst the targets (bench/README.md, "The service under load")${defaultLoad ? '' : ' — set for the default load (20 customers × 5 of 12 files, maxConcurrent 3), not this one'}:`);
    for (const line of targetLines(rounds, runProbes)) console.log(`  ${line}`);
    if (cpuProf) {
      await stopServerProcesses(procs);
      console.log(`\nserver CPU profiles (the whole run, start-up and sign-ups included):`);
      for (const line of summariseProfiles(profiles)) console.log(line);
    }
  } finally {
    await stopServerProcesses(procs);
    await cluster.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
