/**
 * End to end through the API: a ~90 MB APK (grow-apk.ts) sent by the real client —
 * `aabify convert app.apk -o app.aab` (the CLI bundle: streamed upload, event stream with polling
 * beside it, download) — to a real server (embedded test Postgres, local storage, the job
 * queue's production timing), against the engine's own time for the same file (convertApk in
 * this process, as the server's worker threads run it). Prints both, the ratio, and where the
 * end-to-end time went, from the conversion's own timestamps.
 *
 *   npx tsx bench/e2e-upload.ts [--size-mb 90] [--runs 3]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertApk } from '../packages/converter/src/index.js';
import { startTestCluster, stopTestCluster } from '../packages/server/test/helpers/postgres.js';
import { startTestServer } from '../packages/server/test/helpers/server.js';
import { buildSubscriber, tokenFor } from '../packages/server/test/helpers/factories.js';
import { defaultGrownPath, growApk } from './grow-apk.js';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CLI_DIR = join(REPO, 'packages', 'cli');
const CLI = join(CLI_DIR, 'dist', 'aabify.js');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const sizeMb = Number(arg('size-mb', '90'));
const runs = Number(arg('runs', '3'));
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const apk = growApk({ base: 'npm-apidemos-5', sizeMb, out: defaultGrownPath('npm-apidemos-5', sizeMb) });
const apkMb = statSync(apk).size / 1e6;
if (!existsSync(CLI) || process.argv.includes('--rebuild-cli')) {
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: CLI_DIR, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('building the CLI bundle failed');
}
const out = join(tmpdir(), `aabify-e2e-${process.pid}.aab`);

console.log(`aabify end-to-end benchmark — ${cpus().length} CPUs, ${apk} (${apkMb.toFixed(1)} MB), ${runs} runs`);

// The engine alone, in this process.
const engine: number[] = [];
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  await convertApk(apk, out, { overwrite: true });
  engine.push(performance.now() - t);
  console.log(`engine run ${i + 1}: ${s(engine.at(-1)!)}  load ${load()}`);
}
rmSync(out, { force: true });

await startTestCluster();
// queue: {} — Agenda's production polling interval, not the tests' shortened one.
const server = await startTestServer({}, { queue: {} });
const e2e: number[] = [];
try {
  await server.ctx.settings.set('upload.maxFileSize', 200 * 1024 * 1024);
  const user = await buildSubscriber(server, 30);
  const token = tokenFor(server, user);
  for (let i = 0; i < runs; i++) {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, 'convert', apk, '-o', out, '--url', server.url, '-q'], {
      env: { ...process.env, AABIFY_TOKEN: token, CI: 'true' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    const ended = Date.now();
    if (code !== 0) throw new Error(`aabify convert exited ${code}: ${stderr}`);
    e2e.push(ended - started);
    const c = await server.ctx.models.Conversion.findOne({ where: { userId: user.id }, order: [['createdAt', 'DESC']] });
    const at = (d: Date | null | undefined) => (d ? d.getTime() : NaN);
    console.log(
      `e2e run ${i + 1}: ${s(ended - started)} (AAB ${(statSync(out).size / 1e6).toFixed(1)} MB) — ` +
        `upload ${s(at(c?.createdAt) - started)}, queued → processing ${s(at(c?.processingStartedAt) - at(c?.queuedAt ?? c?.createdAt))}, ` +
        `processing ${s(at(c?.completedAt) - at(c?.processingStartedAt))} (engine in the worker ${s(c?.report?.durations.total ?? NaN)}), ` +
        `completed → AAB on disk ${s(ended - at(c?.completedAt))}  load ${load()}`,
    );
    rmSync(out, { force: true });
  }
} finally {
  await server.stop();
  await stopTestCluster();
}
const best = (xs: number[]) => Math.min(...xs);
console.log(`engine best ${s(best(engine))}, end to end best ${s(best(e2e))}: ratio ${(best(e2e) / best(engine)).toFixed(2)}× (target < 2.5×)`);
process.exit(0);
