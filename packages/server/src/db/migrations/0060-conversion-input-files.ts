import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * The other files of a conversion uploaded as a set (more split APKs, OBB files) beside the
 * first one (`apkKey`): `[{ key, fileName, size, obb }]`, in upload order; null for one APK.
 */
export const conversionInputFiles: Migration = {
  name: '0060-conversion-input-files',
  async up(qi) {
    await qi.addColumn('conversions', 'inputFiles', { type: DataTypes.JSONB, allowNull: true });
  },
  async down(qi) {
    await qi.removeColumn('conversions', 'inputFiles');
  },
};
