import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/** What each engine stage said about a conversion; at most 200 rows are kept per conversion. */
export const conversionLogs: Migration = {
  name: '0021-conversion-logs',
  async up(qi) {
    await qi.createTable('conversion_logs', {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      conversionId: { type: DataTypes.UUID, allowNull: false, references: { model: 'conversions', key: 'id' }, onDelete: 'CASCADE' },
      timestamp: { type: DataTypes.DATE, allowNull: false },
      level: { type: DataTypes.STRING(16), allowNull: false },
      step: { type: DataTypes.STRING(32), allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: false },
    });
    await qi.addIndex('conversion_logs', ['conversionId', 'id'], { name: 'conversion_logs_conversion' });
  },
  async down(qi) {
    await qi.dropTable('conversion_logs');
  },
};
