/**
 * A real aabify server for the CLI's tests, as a child process on embedded defaults (its own
 * data dir, HTTP port and embedded Postgres port). The CLI package never imports server code:
 * the server runs from its sources through tsx, and tests talk to it over HTTP like the CLI.
 *
 *   const server = await startServer();
 *   const admin = await server.initializeAdmin();
 *   ...
 *   await server.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
const SERVER_MAIN = join(REPO_ROOT, 'packages', 'server', 'src', 'main.ts');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

export interface TestServer {
  url: string;
  dataDir: string;
  /** Everything the server printed (for failure messages). */
  output(): string;
  api(method: string, path: string, body?: unknown, token?: string): Promise<JsonAnswer>;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}, timeoutMs = 120_000): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'aabify-cli-srv-'));
  const port = await freePort();
  const pgPort = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(pgPort),
    LOG_LEVEL: 'warn',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready after ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (log.includes('aabify pronto')) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready:\n${log}`));
    });
  }).catch(async (e: unknown) => {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    dataDir,
    output: () => log,
    async api(method, path, body, token) {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
