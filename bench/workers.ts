/**
 * Worker scale-out benchmark: conversions per minute with 1, 2 and 4 worker processes.
 * For each count it starts an empty database on an embedded Postgres, one ROLE=web and N
 * ROLE=worker processes (the built server, bench/serverProcess.ts), submits the same
 * corpus conversions through HTTP as an admin (no credits needed) and times first upload to
 * last completion.
 *
 *   npx tsx bench/workers.ts [--workers 1,2,4] [--conversions 24] [--max-concurrent 8]
 *
 * conversions.maxConcurrent (global, every process together) is the same for every run, and
 * concurrentPerUser is 0 (unlimited), so the number of worker processes is the only variable.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded.js';
import { freePort } from '../packages/server/test/helpers/postgres.js';
import { benchServerEnv, callApi as call, freshDatabase, startServerProcess as startProcess, stopServerProcesses } from './serverProcess.js';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CORPUS = process.env.AABIFY_CORPUS ?? join(REPO, '..', 'shared', 'corpus');
const APKS = ['diva.apk', 'github-mobile.apk', 'at-issue2701.apk', 'drozer-agent.apk', 'ag-jamendo.apk', 'mastg-uncrackable2.apk'];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const workerCounts = arg('workers', '1,2,4').split(',').map(Number);
const total = Number(arg('conversions', '24'));
const maxConcurrent = Number(arg('max-concurrent', '8'));

async function run(adminUrl: string, workers: number): Promise<{ perMinute: number; seconds: number; failed: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'aabify-bench-'));
  const env = benchServerEnv(await freshDatabase(adminUrl), dir);
  const procs: ChildProcess[] = [];
  try {
    const web = await startProcess({ ...env, ROLE: 'web', PORT: String(await freePort()), DATA_DIR: join(dir, 'web') });
    procs.push(web.child);
    const setup = await call<{ token: string }>(web.url, 'POST', '/setup/initialize', undefined, { email: 'bench@example.com', password: 'senha-do-bench-1', name: 'Bench' });
    const token = setup.token;
    await call(web.url, 'PUT', '/admin/config/conversions.maxConcurrent', token, { value: maxConcurrent });
    await call(web.url, 'PUT', '/admin/config/conversions.concurrentPerUser', token, { value: 0 });
    // The whole batch is queued at once by one account.
    await call(web.url, 'PUT', '/admin/config/conversions.maxActivePerUser', token, { value: Math.max(total, 1) });
    for (let i = 0; i < workers; i++) {
      procs.push((await startProcess({ ...env, ROLE: 'worker', PORT: String(await freePort()), DATA_DIR: join(dir, `worker-${i}`) })).child);
    }
    const files = APKS.map((name) => ({ name, bytes: readFileSync(join(CORPUS, name)) }));
    const started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < total; i++) {
      const f = files[i % files.length]!;
      const form = new FormData();
      form.append('apk', new Blob([new Uint8Array(f.bytes)]), f.name);
      ids.push((await call<{ conversionId: string }>(web.url, 'POST', '/conversion/convert', token, form)).conversionId);
    }
    const pending = new Set(ids);
    let failed = 0;
    while (pending.size) {
      for (const id of [...pending]) {
        const c = await call<{ status: string }>(web.url, 'GET', `/conversion/status/${id}`, token);
        if (c.status === 'completed' || c.status === 'failed' || c.status === 'cancelled') {
          pending.delete(id);
          if (c.status !== 'completed') failed++;
        }
      }
      if (pending.size) await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    return { perMinute: (total / seconds) * 60, seconds, failed };
  } finally {
    await stopServerProcesses(procs);
    await rm(dir, { recursive: true, force: true });
  }
}

const pgDir = await mkdtemp(join(tmpdir(), 'aabify-bench-pg-'));
const cluster = await startEmbeddedPostgres({ dir: pgDir, port: await freePort(), password: randomBytes(12).toString('hex') });
console.log(`${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${total} conversions of ${APKS.length} corpus APKs; maxConcurrent ${maxConcurrent}`);
try {
  for (const workers of workerCounts) {
    const r = await run(cluster.url, workers);
    console.log(`${workers} worker process(es): ${r.perMinute.toFixed(1)} conversions/min (${r.seconds.toFixed(1)} s, ${r.failed} failed), load ${loadavg()[0]!.toFixed(1)}`);
  }
} finally {
  await cluster.stop();
  await rm(pgDir, { recursive: true, force: true });
}
