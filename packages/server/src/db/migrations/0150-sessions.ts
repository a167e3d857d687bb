import { DataTypes, QueryTypes } from 'sequelize';
import type { Migration } from './types.js';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sessions as rows (accounts/sessions.ts): one per signed-in browser or CLI sign-in, named by
 * its token's jti. The row says whether the session still holds (ended, the user's
 * tokenVersion it was made under, expiry), where it came from (user agent, address), when it
 * was last used and when it last proved a password or a two-factor code (re-authentication).
 * Processes cache rows (accounts/principalCache.ts); the trigger announces every change that
 * matters to authentication (lastUsedAt, written often, does not).
 *
 * users.endedSessions (sessions signed out one by one) becomes ended rows, so those tokens
 * stay refused; the column goes. Tokens made before this migration have no row yet: the first
 * request with one writes it (accounts/sessions.ts adoptSession).
 */
export const sessions: Migration = {
  name: '0150-sessions',
  async up(qi, sequelize) {
    await qi.createTable('sessions', {
      id: { type: DataTypes.UUID, primaryKey: true },
      userId: { type: DataTypes.UUID, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      address: { type: DataTypes.STRING(64), allowNull: true },
      endedAt: { type: DataTypes.DATE, allowNull: true },
      verifiedAt: { type: DataTypes.DATE, allowNull: true },
      enrolmentRequired: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    });
    await qi.addIndex('sessions', ['userId', 'createdAt'], { name: 'sessions_user_created' });
    await sequelize.query(
      `CREATE TRIGGER sessions_changed AFTER UPDATE OF "endedAt", "verifiedAt", "tokenVersion", "userId", "enrolmentRequired", "expiresAt" OR DELETE ON sessions
       FOR EACH ROW EXECUTE FUNCTION aabify_row_changed('session', 'id')`,
    );

    const users = await sequelize.query<{ id: string; tokenVersion: number; endedSessions: unknown }>(
      `SELECT id, "tokenVersion", "endedSessions" FROM users WHERE jsonb_array_length("endedSessions") > 0`,
      { type: QueryTypes.SELECT },
    );
    const nowSeconds = Date.now() / 1000;
    for (const user of users) {
      const ended = Array.isArray(user.endedSessions) ? (user.endedSessions as Array<{ id?: unknown; exp?: unknown }>) : [];
      for (const entry of ended) {
        if (typeof entry.id !== 'string' || !UUID_SHAPE.test(entry.id) || typeof entry.exp !== 'number' || entry.exp <= nowSeconds) continue;
        await sequelize.query(
          `INSERT INTO sessions (id, "userId", "tokenVersion", "createdAt", "expiresAt", "endedAt")
           VALUES (:id, :userId, :tokenVersion, now(), to_timestamp(:exp), now()) ON CONFLICT (id) DO NOTHING`,
          { replacements: { id: entry.id, userId: user.id, tokenVersion: user.tokenVersion, exp: entry.exp } },
        );
      }
    }
    await qi.removeColumn('users', 'endedSessions');
  },
  async down(qi, sequelize) {
    await qi.addColumn('users', 'endedSessions', { type: DataTypes.JSONB, allowNull: false, defaultValue: [] });
    await sequelize.query(
      `UPDATE users u SET "endedSessions" = ended.list FROM (
         SELECT "userId", jsonb_agg(jsonb_build_object('id', id, 'exp', ceil(extract(epoch FROM "expiresAt"))::bigint)) AS list
         FROM sessions WHERE "endedAt" IS NOT NULL AND "expiresAt" > now() GROUP BY "userId") ended
       WHERE u.id = ended."userId"`,
    );
    await qi.dropTable('sessions');
  },
};
