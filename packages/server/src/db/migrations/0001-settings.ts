import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/** Runtime settings that admins edit (key → JSON value); secrets are stored encrypted. */
export const settings: Migration = {
  name: '0001-settings',
  async up(qi) {
    await qi.createTable('settings', {
      key: { type: DataTypes.STRING(128), primaryKey: true },
      value: { type: DataTypes.JSONB, allowNull: false },
      encrypted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
  },
  async down(qi) {
    await qi.dropTable('settings');
  },
};
