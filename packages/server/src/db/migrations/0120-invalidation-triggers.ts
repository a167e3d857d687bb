import { INVALIDATION_CHANNEL } from '../notifications.js';
import type { Migration } from './types.js';

/**
 * Rows that processes cache in memory (accounts/principalCache.ts, conversions/rowCache.ts)
 * announce their own changes: a trigger sends the notifier's message (db/notifications.ts)
 * naming the row, delivered to every process when the writing transaction commits. In the
 * database rather than beside each write, so no writer — a route, a job, a raw UPDATE, a
 * cascade — can forget it.
 *   users: any update (role, isActive, tokenVersion, credits, soft deletion …) or delete;
 *   api_tokens: delete (revocation), or a change of its hash or owner (lastUsedAt is not);
 *   conversions: any update (status, progress …) or delete.
 */
const TABLES: Array<{ table: string; topic: string; column: string; events: string }> = [
  { table: 'users', topic: 'user', column: 'id', events: 'UPDATE OR DELETE' },
  { table: 'api_tokens', topic: 'api-token', column: 'tokenHash', events: 'UPDATE OF "tokenHash", "userId" OR DELETE' },
  { table: 'conversions', topic: 'conversion', column: 'id', events: 'UPDATE OR DELETE' },
];

export const invalidationTriggers: Migration = {
  name: '0120-invalidation-triggers',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE OR REPLACE FUNCTION aabify_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${INVALIDATION_CHANNEL}', json_build_object('topic', TG_ARGV[0], 'payload', to_jsonb(OLD) ->> TG_ARGV[1])::text);
        RETURN NULL;
      END $$`);
    for (const { table, topic, column, events } of TABLES) {
      await sequelize.query(
        `CREATE TRIGGER ${table}_changed AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION aabify_row_changed('${topic}', '${column}')`,
      );
    }
  },
  async down(_qi, sequelize) {
    for (const { table } of TABLES) await sequelize.query(`DROP TRIGGER IF EXISTS ${table}_changed ON ${table}`);
    await sequelize.query('DROP FUNCTION IF EXISTS aabify_row_changed()');
  },
};
