import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Level, type Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.js';
import { createMigratedTestDatabase } from './postgres.js';
import { logCapture, secretLogArmed } from './secretLog.js';
import type { ScryptParams } from '../../src/accounts/password.js';

/**
 * The scrypt cost test servers hash with (4 MiB, a few ms) instead of production's (64 MiB): the
 * suite signs in hundreds of times. A test about the real cost passes CURRENT_PARAMS itself.
 */
export const TEST_PASSWORD_PARAMS: ScryptParams = { ln: 12, r: 8, p: 1 };

/**
 * The shared secrets every test process on one database uses (config.ts requires them with
 * DATABASE_URL): servers of a test — in this process or spawned — sign and encrypt alike.
 */
export const TEST_SECRETS = {
  JWT_SECRET: 'test-jwt-secret-for-every-process-0123456789',
  ENCRYPTION_KEY: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
} as const;

export interface TestServer extends RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A test server's logger: in the server suite, `debug` into the run's capture, which the root hook
 * searches for every secret the run minted (helpers/secretLog.ts); elsewhere (benchmarks) silent.
 * TEST_LOG_LEVEL prints the lines too.
 */
export function testLogger(): Logger {
  const shown = process.env.TEST_LOG_LEVEL;
  if (!secretLogArmed()) return pino({ level: shown ?? 'silent' });
  if (!shown || !isLevel(shown)) return pino({ level: 'debug' }, logCapture);
  const lowest = pino.levels.values[shown]! < pino.levels.values.debug! ? shown : 'debug';
  return pino({ level: lowest }, pino.multistream([{ level: 'debug', stream: logCapture }, { level: shown, stream: process.stdout }]));
}

const isLevel = (name: string): name is Level => ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].includes(name);

/** A real server on a fresh database and data dir, listening on a free loopback port. */
export async function startTestServer(
  env: Record<string, string> = {},
  opts: StartOptions & { databaseUrl?: string } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'aabify-srv-'));
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: opts.databaseUrl ?? (await createMigratedTestDatabase()),
    LOG_LEVEL: 'silent',
    ...TEST_SECRETS,
    ...env,
  });
  const server = await startServer(config, { logger: testLogger(), queue: { processEvery: 200 }, passwordParams: TEST_PASSWORD_PARAMS, ...opts });
  return {
    ...server,
    url: server.url!,
    dataDir,
    async stop() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
