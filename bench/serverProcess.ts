/**
 * The server as the benches run it: real processes of the server as it ships (`node
 * dist/main.js`, the bundle `npm run build` makes — rebuilt once per bench from the working tree,
 * so the figures are this code's and no TypeScript loader's) on a database of their own in a
 * bench-owned embedded Postgres, and HTTP calls to them.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../scripts/serverNodeFlags.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SERVER_DIR = join(REPO, 'packages', 'server');
/**
 * AABIFY_BENCH_SERVER_DIST: a server bundle built before (`AABIFY_SERVER_OUTDIR=dist-before node
 * build.mjs` in packages/server, at another revision) run as it is, to alternate an old build with
 * the working tree's on the same machine; a folder inside packages/server so it resolves the same
 * node_modules.
 */
const PREBUILT = process.env.AABIFY_BENCH_SERVER_DIST ? resolve(SERVER_DIR, process.env.AABIFY_BENCH_SERVER_DIST) : undefined;
const MAIN = join(PREBUILT ?? join(SERVER_DIR, 'dist'), 'main.js');
let built = PREBUILT !== undefined;

/** Builds the server bundle from the working tree, once per bench process. */
function buildServer(): void {
  if (built) return;
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: SERVER_DIR, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('server build failed');
  built = true;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/** Which bundle the server processes run (the working tree's, or AABIFY_BENCH_SERVER_DIST's). */
export const serverBundle = (): string => MAIN;

/**
 * The Node that runs the server processes: this one's, or AABIFY_BENCH_SERVER_NODE's (e.g. the
 * image's line, 24, from `node scripts/fetch-node.mjs 24`: .cache/node/<version>/bin/node).
 */
export const serverNode = (): string => process.env.AABIFY_BENCH_SERVER_NODE ?? process.execPath;

/** The version of serverNode() (v24.…). */
export const serverNodeVersion = (): string => execFileSync(serverNode(), ['--version'], { encoding: 'utf8' }).trim();

/** Starts one server process with `env` on top of this one's, Node's flags and glibc's settings as `npm start` and the image give them (and `nodeArgs`, e.g. --cpu-prof); resolves once it says it is ready. */
export function startServerProcess(env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  buildServer();
  const child = spawn(serverNode(), [...SERVER_NODE_FLAGS, ...nodeArgs, MAIN], { env: { ...SERVER_MALLOC_ENV, ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  // AABIFY_BENCH_SERVER_LOG: the server's log (LOG_LEVEL, warn by default) is kept in that file.
  const keep = process.env.AABIFY_BENCH_SERVER_LOG ? createWriteStream(process.env.AABIFY_BENCH_SERVER_LOG, { flags: 'a' }) : undefined;
  return new Promise((resolveStart, reject) => {
    let out: string | undefined = '';
    child.stdout!.on('data', (d: Buffer) => {
      keep?.write(d);
      if (out === undefined) return;
      out += d.toString();
      const m = /aabify pronto: abra (\S+)/.exec(out);
      if (m) {
        out = undefined;
        resolveStart({ child, url: m[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`process exited during start (${code})`)));
  });
}

/** Stops the processes (SIGTERM) and waits for each to exit. */
export async function stopServerProcesses(children: readonly ChildProcess[]): Promise<void> {
  for (const p of children) p.kill('SIGTERM');
  await Promise.all(children.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
}

/** A new empty database on the cluster of `adminUrl`; answers its URL. */
export async function freshDatabase(adminUrl: string): Promise<string> {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
}

/** The environment every bench server shares: fresh secrets, local storage under `dir`, quiet logs (LOG_LEVEL: info gives each request's time). */
export function benchServerEnv(databaseUrl: string, dir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    STORAGE: 'local',
    STORAGE_DIR: join(dir, 'files'),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
}

/** One API call; JSON in and out (a FormData body is sent as multipart); throws on a non-2xx answer. */
export async function callApi<T>(url: string, method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (text ? JSON.parse(text) : undefined) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return json;
}
