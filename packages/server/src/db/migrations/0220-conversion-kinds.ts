import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Conversions of a second kind: an uploaded AAB made into an installable APK (`aab-to-apks`);
 * every earlier row made an AAB from an APK. The APK's report (what was built, what signed it)
 * is kept apart from the AAB report's shape.
 */
export const conversionKinds: Migration = {
  name: '0220-conversion-kinds',
  async up(qi) {
    await qi.addColumn('conversions', 'kind', { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'apk-to-aab' });
    await qi.addColumn('conversions', 'apksReport', { type: DataTypes.JSONB, allowNull: true });
  },
  async down(qi) {
    await qi.removeColumn('conversions', 'apksReport');
    await qi.removeColumn('conversions', 'kind');
  },
};
