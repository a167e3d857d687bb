/**
 * Server benchmark: a real server (embedded test Postgres, worker threads) measured through
 * HTTP. Prints
 *   1. status reads per second and latency percentiles (autocannon on GET /api/conversion/status/{id}),
 *      first on an idle server, then while conversions run (the engine is off the main thread,
 *      so the API should stay responsive);
 *   2. end-to-end throughput of N parallel conversions of corpus APKs (upload → completed).
 *
 *   npx tsx bench/server-api.ts [--conversions 20] [--max-concurrent 3] [--duration 10] [--connections 20]
 */
import { createRequire } from 'node:module';
import { readFile, readdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { startTestCluster, stopTestCluster } from '../packages/server/test/helpers/postgres.js';
import { startTestServer } from '../packages/server/test/helpers/server.js';
import { buildSubscriber, tokenFor } from '../packages/server/test/helpers/factories.js';
import { CORPUS_DIR, conversionIdOf, uploadBytes, waitForStatus } from '../packages/server/test/helpers/conversions.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; headers: Record<string, string> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const conversions = arg('conversions', 20);
const maxConcurrent = arg('max-concurrent', 3);
const duration = arg('duration', 10);
const connections = arg('connections', 20);

function line(label: string, r: AutocannonResult): void {
  console.log(
    `${label.padEnd(34)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  (non-2xx ${r.non2xx}, errors ${r.errors})`,
  );
}

await startTestCluster();
const server = await startTestServer({}, { queue: { processEvery: 200 } });
try {
  await server.ctx.settings.set('conversions.maxConcurrent', maxConcurrent);
  await server.ctx.settings.set('conversions.concurrentPerUser', 0);
  const user = await buildSubscriber(server, 30);
  const token = tokenFor(server, user);
  const headers = { authorization: `Bearer ${token}` };
  const apks = (await readdir(CORPUS_DIR)).filter((f) => f.endsWith('.apk')).sort();
  if (!apks.length) throw new Error(`no APKs in ${CORPUS_DIR} (set AABIFY_CORPUS)`);
  const files = await Promise.all(apks.map(async (name) => ({ name, bytes: await readFile(join(CORPUS_DIR, name)) })));

  console.log(`aabify server benchmark — ${cpus().length} CPUs, maxConcurrent ${maxConcurrent}, ${connections} connections, ${duration}s per run`);
  const warm = conversionIdOf(await uploadBytes(server, token, files.find((f) => f.name === 'jx-small.apk')?.bytes ?? files[0]!.bytes, { fileName: 'aquecimento.apk' }));
  await waitForStatus(server, token, warm, ['completed', 'failed'], 120000);
  const statusUrl = `${server.url}/api/conversion/status/${warm}`;

  line('status reads, idle', await autocannon({ url: statusUrl, connections, duration, headers }));

  // N parallel uploads of corpus APKs, with status reads hammering the API meanwhile.
  const picked = Array.from({ length: conversions }, (_, i) => files[i % files.length]!);
  const totalBytes = picked.reduce((n, f) => n + f.bytes.length, 0);
  const started = performance.now();
  const load = autocannon({ url: statusUrl, connections, duration, headers });
  const ids = await Promise.all(picked.map(async (f) => conversionIdOf(await uploadBytes(server, token, f.bytes, { fileName: f.name }))));
  const uploaded = performance.now();
  const results = await Promise.all(ids.map((id) => waitForStatus(server, token, id, ['completed', 'failed'], 600000)));
  const finished = performance.now();
  line('status reads, during conversions', await load);

  const ok = results.filter((r) => r.status === 'completed').length;
  const engineMs = results.map((r) => r.duration ?? 0);
  const seconds = (finished - started) / 1000;
  console.log(
    `${conversions} parallel conversions            ${ok}/${conversions} completed in ${seconds.toFixed(1)} s ` +
      `(uploads ${((uploaded - started) / 1000).toFixed(1)} s) — ${(ok / seconds).toFixed(2)} conversions/s, ` +
      `${(totalBytes / 1048576 / seconds).toFixed(1)} MB/s of APK, mean processing ${(engineMs.reduce((a, b) => a + b, 0) / engineMs.length).toFixed(0)} ms`,
  );
  for (const r of results.filter((x) => x.status !== 'completed')) console.log(`  failed: ${r.fileName}: ${r.errorCode} ${r.error}`);
} finally {
  await server.stop();
  await stopTestCluster();
}
// autocannon and the keep-alive HTTP clients leave timers behind for minutes; the figures are printed, so end now.
process.exit(process.exitCode ?? 0);
