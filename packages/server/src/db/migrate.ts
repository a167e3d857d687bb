/**
 * Schema changes happen only through these migrations, run at start (umzug, state kept in
 * the `SequelizeMeta` table). The list is explicit so the bundled server carries them all.
 */
import { Umzug, SequelizeStorage } from 'umzug';
import { QueryTypes, type QueryInterface, type Sequelize } from 'sequelize';
import type { ClientBase } from 'pg';
import type { Logger } from '../logger.js';
import { migrations } from './migrations/index.js';

export type MigrationContext = QueryInterface;

export function createMigrator(sequelize: Sequelize, logger?: Logger) {
  return new Umzug<QueryInterface>({
    migrations: migrations.map((m) => ({
      name: m.name,
      up: ({ context }) => m.up(context, sequelize),
      down: ({ context }) => m.down(context, sequelize),
    })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize }),
    logger: logger
      ? { info: (m) => logger.info(m, 'migration'), warn: (m) => logger.warn(m), error: (m) => logger.error(m), debug: (m) => logger.debug(m) }
      : undefined,
  });
}

export class SchemaNewerError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `O banco de dados já tem migrações que esta versão do aabify não conhece (${unknown.join(', ')}): ` +
        'atualize este processo para a versão que as aplicou antes de iniciá-lo.',
    );
    this.name = 'SchemaNewerError';
  }
}

const STARTUP_LOCK = 0x0aab1f1;

/**
 * Runs `fn` while holding the start-up advisory lock, on one connection taken out of the pool
 * for the whole time (lock and unlock on the same session; the lock goes with the session if
 * the process dies), so processes starting together on one database change its schema one at
 * a time. `fn` must not take the lock again: it would wait on another connection forever.
 */
export async function withStartupLock<T>(sequelize: Sequelize, fn: () => Promise<T>): Promise<T> {
  const connection = (await sequelize.connectionManager.getConnection({ type: 'write' })) as unknown as ClientBase;
  try {
    await connection.query(`SELECT pg_advisory_lock(${STARTUP_LOCK})`);
    try {
      return await fn();
    } finally {
      await connection.query(`SELECT pg_advisory_unlock(${STARTUP_LOCK})`);
    }
  } finally {
    await sequelize.connectionManager.releaseConnection(connection as unknown as object);
  }
}

/** Refuses a database migrated by newer code: this code would misread tables it does not know. */
export async function assertSchemaNotNewer(sequelize: Sequelize): Promise<void> {
  const [exists] = await sequelize.query<{ t: string | null }>(`SELECT to_regclass('"SequelizeMeta"')::text AS t`, { type: QueryTypes.SELECT });
  if (!exists?.t) return;
  const rows = await sequelize.query<{ name: string }>('SELECT name FROM "SequelizeMeta"', { type: QueryTypes.SELECT });
  const known = new Set(migrations.map((m) => m.name));
  const unknown = rows.map((r) => r.name).filter((n) => !known.has(n)).sort();
  if (unknown.length) throw new SchemaNewerError(unknown);
}

/**
 * Start-up schema work under the start-up lock: refuse a newer schema, run pending migrations,
 * then `alsoUnderLock` (the job queue's tables, secrets re-encryption). Returns the migrations applied.
 */
export async function prepareSchema(sequelize: Sequelize, logger?: Logger, alsoUnderLock?: () => Promise<void>): Promise<string[]> {
  return withStartupLock(sequelize, async () => {
    await assertSchemaNotNewer(sequelize);
    const done = await createMigrator(sequelize, logger).up();
    await alsoUnderLock?.();
    return done.map((m) => m.name);
  });
}

/** Runs pending migrations under the start-up lock. */
export function migrateUp(sequelize: Sequelize, logger?: Logger): Promise<string[]> {
  return prepareSchema(sequelize, logger);
}
