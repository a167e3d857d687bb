import type { Migration } from './types.js';

/**
 * Rate-limit counters shared by every web process (http/rateLimiter.ts): the table
 * rate-limiter-flexible's Postgres store reads and writes, created here rather than by the
 * library at start, so processes starting at once never race on CREATE TABLE. `expire` is
 * epoch milliseconds; the index serves the periodic delete of expired rows.
 */
export const rateLimits: Migration = {
  name: '0070-rate-limits',
  async up(qi) {
    await qi.sequelize.query(`
      CREATE TABLE rate_limits (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
    await qi.sequelize.query('CREATE INDEX rate_limits_expire ON rate_limits (expire)');
  },
  async down(qi) {
    await qi.dropTable('rate_limits');
  },
};
