import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * "Testar no celular": a conversion keeps the universal APK built from its AAB (what signed it,
 * in `testApk`), and a download link says which of the conversion's files it opens.
 */
export const testApks: Migration = {
  name: '0190-test-apks',
  async up(qi) {
    await qi.addColumn('conversions', 'testApk', { type: DataTypes.JSONB, allowNull: true });
    await qi.addColumn('download_tokens', 'file', { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'aab' });
  },
  async down(qi) {
    await qi.removeColumn('download_tokens', 'file');
    await qi.removeColumn('conversions', 'testApk');
  },
};
