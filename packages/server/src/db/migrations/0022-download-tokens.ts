import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/** One-hour download tokens: only a SHA-256 of the token is stored. */
export const downloadTokens: Migration = {
  name: '0022-download-tokens',
  async up(qi) {
    await qi.createTable('download_tokens', {
      tokenHash: { type: DataTypes.CHAR(64), primaryKey: true },
      conversionId: { type: DataTypes.UUID, allowNull: false, references: { model: 'conversions', key: 'id' }, onDelete: 'CASCADE' },
      userId: { type: DataTypes.UUID, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex('download_tokens', ['expiresAt'], { name: 'download_tokens_expires' });
    await qi.addIndex('download_tokens', ['conversionId'], { name: 'download_tokens_conversion' });
  },
  async down(qi) {
    await qi.dropTable('download_tokens');
  },
};
