import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * One Google Play service-account key per user (play/credentials.ts): the key file is one
 * AES-256-GCM ciphertext (the user id as additional data), like the upload keystore; only the
 * client e-mail, project and key id are kept in the clear, to show.
 */
export const playCredentials: Migration = {
  name: '0110-play-credentials',
  async up(qi) {
    await qi.createTable('play_credentials', {
      userId: { type: DataTypes.UUID, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      secret: { type: DataTypes.JSONB, allowNull: false },
      clientEmail: { type: DataTypes.STRING(254), allowNull: false },
      projectId: { type: DataTypes.STRING(128), allowNull: true },
      privateKeyId: { type: DataTypes.STRING(128), allowNull: true },
      lastTestedAt: { type: DataTypes.DATE, allowNull: true },
      lastTestedPackage: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
  },
  async down(qi) {
    await qi.dropTable('play_credentials');
  },
};
