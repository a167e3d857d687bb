import { Sequelize } from 'sequelize';
import type { Logger } from '../logger.js';

export function createSequelize(url: string, logger: Logger): Sequelize {
  return new Sequelize(url, {
    dialect: 'postgres',
    logging: (sql) => logger.trace({ sql }, 'sql'),
    pool: { max: 10, min: 0, idle: 10000 },
    define: { underscored: false, timestamps: true },
  });
}
