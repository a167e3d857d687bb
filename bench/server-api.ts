/**
 * Server benchmark: a real server (embedded test Postgres, worker threads) measured through
 * HTTP, with autocannon in a separate process (the server's main thread is what is measured,
 * not the load generator). Prints, each with the load average of the machine at the time:
 *   1. GET /api/health and GET /api/conversion/status/{id} (a bearer token; a completed
 *      conversion of its user), same autocannon settings, one after the other, and the ratio
 *      status / health of their throughputs — on an idle server;
 *   2. the same while N conversions are in flight (each one that ends is replaced by a new
 *      upload until both runs are over), then how many conversions completed meanwhile.
 *
 *   npx tsx bench/server-api.ts [--conversions 20] [--max-concurrent 3] [--duration 10] [--connections 20]
 *                               [--credential jwt|api-token] [--log info|silent] [--rounds 1]
 *
 * --log info (the default, as in production) writes the request log to /dev/null through the
 * server's own logger (redaction included); --log silent measures without it.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFile, readdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createLogger } from '../packages/server/src/logger.js';
import { startTestCluster, stopTestCluster } from '../packages/server/test/helpers/postgres.js';
import { startTestServer, type TestServer } from '../packages/server/test/helpers/server.js';
import { buildAdmin, buildSubscriber, tokenFor } from '../packages/server/test/helpers/factories.js';
import { CORPUS_DIR, conversionIdOf, sleep, statusOf, uploadBytes, waitForStatus } from '../packages/server/test/helpers/conversions.js';
import { api } from '../packages/server/test/helpers/http.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const conversions = Number(arg('conversions', '20'));
const maxConcurrent = Number(arg('max-concurrent', '3'));
const duration = Number(arg('duration', '10'));
const connections = Number(arg('connections', '20'));
const credential = arg('credential', 'jwt');
const logLevel = arg('log', 'info');
const rounds = Number(arg('rounds', '1'));

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon');
/** One autocannon run in its own process; its JSON result. */
function autocannon(url: string, headers: Record<string, string>): Promise<AutocannonResult> {
  const script = `const r = require(${JSON.stringify(AUTOCANNON)})(JSON.parse(process.argv[1]), (err, res) => { if (err) throw err; process.stdout.write(JSON.stringify(res)); });`;
  const child = spawn(process.execPath, ['-e', script, JSON.stringify({ url, connections, duration, headers })], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as AutocannonResult) : reject(new Error(`autocannon exited ${code}`)))));
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
function line(label: string, r: AutocannonResult): void {
  console.log(
    `${label.padEnd(30)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  (non-2xx ${r.non2xx}, errors ${r.errors})  load ${load()}`,
  );
}

/** Health, then status, with the same settings; prints both and the ratio. */
async function pair(label: string, server: TestServer, statusUrl: string, headers: Record<string, string>): Promise<void> {
  const health = await autocannon(`${server.url}/api/health`, {});
  line(`health, ${label}`, health);
  const status = await autocannon(statusUrl, headers);
  line(`status, ${label}`, status);
  console.log(`${'status / health'.padEnd(30)} ${((100 * status.requests.average) / health.requests.average).toFixed(0).padStart(5)} %`);
}

await startTestCluster();
// The request log as production writes it (the server's logger: JSON, redaction), into /dev/null.
const logger = logLevel === 'silent' ? pino({ level: 'silent' }) : createLogger('info', pino.destination({ dest: '/dev/null', sync: false }));
const server = await startTestServer({}, { logger, queue: { processEvery: 200 }, conversions: { submitRateLimit: { points: 1_000_000, windowMs: 60_000 } } });
try {
  await server.ctx.settings.set('conversions.maxConcurrent', maxConcurrent);
  await server.ctx.settings.set('conversions.concurrentPerUser', 0);
  // `conversions` in flight at once, all the admin's.
  await server.ctx.settings.set('conversions.maxActivePerUser', Math.max(conversions, 1));
  const user = await buildSubscriber(server, 30);
  const session = tokenFor(server, user);
  const admin = await buildAdmin(server);
  const adminToken = tokenFor(server, admin);
  const bearer =
    credential === 'api-token'
      ? ((await api(server).post<{ token: string }>('/auth/tokens', { name: 'bench' }, session)).body.token)
      : session;
  const headers = { authorization: `Bearer ${bearer}` };
  const apks = (await readdir(CORPUS_DIR)).filter((f) => f.endsWith('.apk')).sort();
  if (!apks.length) throw new Error(`no APKs in ${CORPUS_DIR} (set AABIFY_CORPUS)`);
  const files = await Promise.all(apks.map(async (name) => ({ name, bytes: await readFile(join(CORPUS_DIR, name)) })));

  console.log(
    `aabify server benchmark — ${cpus().length} CPUs, maxConcurrent ${maxConcurrent}, ${connections} connections, ${duration}s per run, ` +
      `credential ${credential}, request log ${logLevel}, autocannon in its own process`,
  );
  const warm = conversionIdOf(await uploadBytes(server, session, files.find((f) => f.name === 'jx-small.apk')?.bytes ?? files[0]!.bytes, { fileName: 'aquecimento.apk' }));
  await waitForStatus(server, session, warm, ['completed', 'failed'], 120000);
  const statusUrl = `${server.url}/api/conversion/status/${warm}`;

  for (let round = 1; round <= rounds; round++) await pair('idle', server, statusUrl, headers);

  // `conversions` in flight for the whole measurement: each one that ends is replaced.
  let stop = false;
  let completed = 0;
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const lanes = Array.from({ length: conversions }, async () => {
    while (!stop) {
      const f = files[next++ % files.length]!;
      const id = conversionIdOf(await uploadBytes(server, adminToken, f.bytes, { fileName: f.name }));
      for (;;) {
        await sleep(250);
        const c = await statusOf(server, adminToken, id);
        if (c.status === 'completed') completed++;
        else if (c.status === 'failed') failed++;
        else continue;
        break;
      }
    }
  });
  await sleep(2000);
  for (let round = 1; round <= rounds; round++) await pair(`${conversions} conversions`, server, statusUrl, headers);
  stop = true;
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(lanes);
  console.log(`${'conversions meanwhile'.padEnd(30)} ${completed} completed, ${failed} failed in ${seconds.toFixed(1)} s (${(completed / seconds).toFixed(2)} /s)`);
} finally {
  await server.stop();
  await stopTestCluster();
}
// Keep-alive HTTP clients leave timers behind for minutes; the figures are printed, so end now.
process.exit(process.exitCode ?? 0);
