import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * users.endedSessions: the sessions a user signed out of one by one (POST /auth/logout), by the
 * jti of their token, until they would have expired anyway. On the user's row, which every
 * process already caches with invalidation, so checking it costs no query.
 */
export const endedSessions: Migration = {
  name: '0131-ended-sessions',
  async up(qi) {
    await qi.addColumn('users', 'endedSessions', { type: DataTypes.JSONB, allowNull: false, defaultValue: [] });
  },
  async down(qi) {
    await qi.removeColumn('users', 'endedSessions');
  },
};
