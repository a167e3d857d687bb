import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * users.emailVerifiedAt (confirmed address) and users.notifyConversions (the account menu's
 * switch). Accounts that exist before this migration count as confirmed: they were made
 * before the product sent e-mail, and locking them out of buying would punish old customers.
 */
export const userEmailFields: Migration = {
  name: '0102-user-email-fields',
  async up(qi, sequelize) {
    await qi.addColumn('users', 'emailVerifiedAt', { type: DataTypes.DATE, allowNull: true });
    await qi.addColumn('users', 'notifyConversions', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true });
    await sequelize.query(`UPDATE users SET "emailVerifiedAt" = "createdAt"`);
  },
  async down(qi) {
    await qi.removeColumn('users', 'notifyConversions');
    await qi.removeColumn('users', 'emailVerifiedAt');
  },
};
