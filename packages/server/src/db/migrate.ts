/**
 * Schema changes happen only through these migrations, run at start (umzug, state kept in
 * the `SequelizeMeta` table). The list is explicit so the bundled server carries them all.
 */
import { Umzug, SequelizeStorage } from 'umzug';
import type { QueryInterface, Sequelize } from 'sequelize';
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

/** Runs pending migrations; an advisory lock keeps concurrent starts from racing. */
export async function migrateUp(sequelize: Sequelize, logger?: Logger): Promise<string[]> {
  const lockKey = 0x0aab1f1;
  await sequelize.query(`SELECT pg_advisory_lock(${lockKey})`);
  try {
    const done = await createMigrator(sequelize, logger).up();
    return done.map((m) => m.name);
  } finally {
    await sequelize.query(`SELECT pg_advisory_unlock(${lockKey})`);
  }
}
