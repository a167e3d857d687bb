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
import { pino } from 'pino';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { createSequelize } from '../../src/db/database.js';
import { migrateUp } from '../../src/db/migrate.js';

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
  return createDatabase();
}

async function createDatabase(template?: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The database every migration has been run on, once per test process and cluster: copying it
 * takes a fraction of a second where migrating a new database takes seconds, and a test server
 * starts on it as on any migrated database (its own start finds nothing left to run). Tests of
 * the migrations themselves, or of processes starting together on a new database, use
 * createTestDatabase.
 */
const migratedTemplates = new Map<string, Promise<string>>();

export async function createMigratedTestDatabase(): Promise<string> {
  const key = adminUrl();
  let template = migratedTemplates.get(key);
  if (!template) {
    template = migrateTemplate();
    migratedTemplates.set(key, template);
    template.catch(() => migratedTemplates.delete(key));
  }
  return createDatabase(await template);
}

async function migrateTemplate(): Promise<string> {
  const url = await createDatabase();
  const sequelize = createSequelize(url, pino({ level: 'silent' }));
  try {
    await migrateUp(sequelize);
  } finally {
    // A template is copied only while nobody is connected to it.
    await sequelize.close();
  }
  return new URL(url).pathname.slice(1);
}
