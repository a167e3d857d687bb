import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/** Personal API tokens (CLI, CI): only a SHA-256 of the secret is stored. */
export const apiTokens: Migration = {
  name: '0003-api-tokens',
  async up(qi, sequelize) {
    await qi.createTable('api_tokens', {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: sequelize.literal('gen_random_uuid()') },
      userId: {
        type: DataTypes.UUID,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
      },
      name: { type: DataTypes.STRING(100), allowNull: false },
      tokenHash: { type: DataTypes.CHAR(64), allowNull: false, unique: true },
      prefix: { type: DataTypes.STRING(16), allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex('api_tokens', ['userId'], { name: 'api_tokens_user_id' });
  },
  async down(qi) {
    await qi.dropTable('api_tokens');
  },
};
