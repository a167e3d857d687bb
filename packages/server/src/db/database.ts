import { Sequelize } from 'sequelize';
import type { Logger } from '../logger.js';

export interface DatabaseOptions {
  /** Connections of the pool (DATABASE_POOL_MAX). */
  poolMax?: number;
  /** Names this process's connections in pg_stat_activity (db/connections.ts). */
  applicationName?: string;
}

export function createSequelize(url: string, logger: Logger, opts: DatabaseOptions = {}): Sequelize {
  return new Sequelize(url, {
    dialect: 'postgres',
    logging: (sql) => logger.trace({ sql }, 'sql'),
    pool: { max: opts.poolMax ?? 10, min: 0, idle: 10000 },
    define: { underscored: false, timestamps: true },
    ...(opts.applicationName ? { dialectOptions: { application_name: opts.applicationName } } : {}),
  });
}
