/**
 * One embedded Postgres for the whole test run (own port, own temp dir), started by the
 * root hooks in test/setup.ts and torn down after. Each test that needs isolation gets a
 * fresh database on it with createTestDatabase().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';

let cluster: { db: EmbeddedDatabase; dir: string; adminUrl: string } | undefined;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startTestCluster(): Promise<void> {
  if (cluster || process.env.AABIFY_TEST_DATABASE_URL) return;
  const dir = await mkdtemp(join(tmpdir(), 'aabify-pg-'));
  const db = await startEmbeddedPostgres({ dir, port: await freePort(), password: randomBytes(12).toString('hex') });
  cluster = { db, dir, adminUrl: db.url };
}

export async function stopTestCluster(): Promise<void> {
  if (!cluster) return;
  await cluster.db.stop();
  await rm(cluster.dir, { recursive: true, force: true });
  cluster = undefined;
}

function adminUrl(): string {
  const url = process.env.AABIFY_TEST_DATABASE_URL ?? cluster?.adminUrl;
  if (!url) throw new Error('test Postgres not started (test/setup.ts root hooks)');
  return url;
}

/** A new empty database on the test cluster; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
