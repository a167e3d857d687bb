import { INVALIDATION_CHANNEL } from '../notifications.js';
import type { Migration } from './types.js';

/**
 * A user's counters (credits reserved, spent or given back, conversions counted) change with
 * every conversion; the rest of the row (role, isActive, tokenVersion …) rarely. Until now any
 * change dropped the user from every process's principal cache, so each conversion made every
 * poll of its owner read the user again. Now:
 *   - "rowVersion" grows by one with every update (a BEFORE trigger: no writer can forget it),
 *     so a process can tell which of two states of a row is the newer;
 *   - an update that changes only the counters announces topic 'user-counters' with the new
 *     values and the version (processes patch their entry: accounts/principalCache.ts);
 *   - any other update, or a delete, announces 'user' as before (processes drop their entry).
 */
const COUNTERS = ['credits', 'creditsReserved', 'creditsOwed', 'conversionsCount', 'monthlyConversions', 'monthlyConversionsMonth', 'updatedAt', 'rowVersion'];

export const userCounterChanges: Migration = {
  name: '0240-user-counter-changes',
  async up(_qi, sequelize) {
    await sequelize.query(`ALTER TABLE users ADD COLUMN "rowVersion" bigint NOT NULL DEFAULT 0`);
    await sequelize.query(`
      CREATE OR REPLACE FUNCTION aabify_user_row_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW."rowVersion" := OLD."rowVersion" + 1;
        RETURN NEW;
      END $$`);
    await sequelize.query(`CREATE TRIGGER users_row_version BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION aabify_user_row_version()`);
    const counters = `ARRAY[${COUNTERS.map((c) => `'${c}'`).join(', ')}]`;
    const counterValues = COUNTERS.map((c) => `'${c}', NEW."${c}"`).join(', ');
    await sequelize.query(`
      CREATE OR REPLACE FUNCTION aabify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) - ${counters}) = (to_jsonb(NEW) - ${counters}) THEN
          PERFORM pg_notify('${INVALIDATION_CHANNEL}', json_build_object('topic', 'user-counters', 'payload', json_build_object('id', OLD.id, ${counterValues})::text)::text);
        ELSE
          PERFORM pg_notify('${INVALIDATION_CHANNEL}', json_build_object('topic', 'user', 'payload', OLD.id)::text);
        END IF;
        RETURN NULL;
      END $$`);
    await sequelize.query(`DROP TRIGGER users_changed ON users`);
    await sequelize.query(`CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION aabify_user_changed()`);
  },
  async down(_qi, sequelize) {
    await sequelize.query(`DROP TRIGGER users_changed ON users`);
    await sequelize.query(`CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION aabify_row_changed('user', 'id')`);
    await sequelize.query(`DROP FUNCTION aabify_user_changed()`);
    await sequelize.query(`DROP TRIGGER users_row_version ON users`);
    await sequelize.query(`DROP FUNCTION aabify_user_row_version()`);
    await sequelize.query(`ALTER TABLE users DROP COLUMN "rowVersion"`);
  },
};
