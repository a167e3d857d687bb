import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { EncryptedValue } from '../settings/crypto.js';

/**
 * A user's upload keystore (keystores/service.ts). `secret` opens only with the data dir's
 * encryption key and this row's user id; no presenter ever shows it.
 */
export class UserKeystore extends Model<InferAttributes<UserKeystore>, InferCreationAttributes<UserKeystore>> {
  declare userId: string;
  declare secret: EncryptedValue;
  declare alias: string;
  declare format: 'PKCS12' | 'JKS';
  declare keyAlgorithm: 'RSA' | 'EC';
  declare keySize: number;
  declare subject: string;
  declare certificateSha1: string;
  declare certificateSha256: string;
  declare notAfter: Date;
  declare fileName: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function defineUserKeystore(sequelize: Sequelize): typeof UserKeystore {
  class BoundUserKeystore extends UserKeystore {}
  BoundUserKeystore.init(
    {
      userId: { type: DataTypes.UUID, primaryKey: true },
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
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'UserKeystore', tableName: 'user_keystores' },
  );
  return BoundUserKeystore;
}
