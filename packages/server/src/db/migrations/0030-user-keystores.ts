import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * One upload keystore per user, to sign conversions. The keystore and its passwords are one
 * AES-256-GCM ciphertext (key from the data dir, the user id as additional data); only the
 * certificate's public facts are kept in the clear, to show and match in Play Console.
 */
export const userKeystores: Migration = {
  name: '0030-user-keystores',
  async up(qi) {
    await qi.createTable('user_keystores', {
      userId: { type: DataTypes.UUID, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      secret: { type: DataTypes.JSONB, allowNull: false },
      alias: { type: DataTypes.STRING(128), allowNull: false },
      format: { type: DataTypes.STRING(8), allowNull: false },
      keyAlgorithm: { type: DataTypes.STRING(8), allowNull: false },
      keySize: { type: DataTypes.INTEGER, allowNull: false },
      subject: { type: DataTypes.STRING(1024), allowNull: false },
      certificateSha1: { type: DataTypes.STRING(64), allowNull: false },
      certificateSha256: { type: DataTypes.STRING(100), allowNull: false },
      notAfter: { type: DataTypes.DATE, allowNull: false },
      fileName: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
  },
  async down(qi) {
    await qi.dropTable('user_keystores');
  },
};
