import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * users.creditsOwed: credits a refund could not take from the free balance because conversions
 * held them (reserved). Such a credit never comes back to the balance: when its conversion fails
 * or is cancelled it pays the debt instead; when it completes it was spent. Never more than the
 * reserved credits, so the debt ends when they do.
 */
export const creditsOwed: Migration = {
  name: '0130-credits-owed',
  async up(qi, sequelize) {
    await qi.addColumn('users', 'creditsOwed', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
    await sequelize.query(`ALTER TABLE users ADD CONSTRAINT users_credits_owed_valid CHECK ("creditsOwed" >= 0 AND "creditsOwed" <= "creditsReserved")`);
  },
  async down(qi, sequelize) {
    await sequelize.query(`ALTER TABLE users DROP CONSTRAINT users_credits_owed_valid`);
    await qi.removeColumn('users', 'creditsOwed');
  },
};
