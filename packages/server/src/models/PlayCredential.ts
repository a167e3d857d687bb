import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { EncryptedValue } from '../settings/crypto.js';

/**
 * A user's Google Play service-account key (play/credentials.ts). `secret` opens only with the
 * data dir's encryption key and this row's user id; no presenter ever shows it.
 */
export class PlayCredential extends Model<InferAttributes<PlayCredential>, InferCreationAttributes<PlayCredential>> {
  declare userId: string;
  declare secret: EncryptedValue;
  declare clientEmail: string;
  declare projectId: string | null;
  declare privateKeyId: string | null;
  declare lastTestedAt: CreationOptional<Date | null>;
  declare lastTestedPackage: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function definePlayCredential(sequelize: Sequelize): typeof PlayCredential {
  class BoundPlayCredential extends PlayCredential {}
  BoundPlayCredential.init(
    {
      userId: { type: DataTypes.UUID, primaryKey: true },
      secret: { type: DataTypes.JSONB, allowNull: false },
      clientEmail: { type: DataTypes.STRING(254), allowNull: false },
      projectId: { type: DataTypes.STRING(128), allowNull: true },
      privateKeyId: { type: DataTypes.STRING(128), allowNull: true },
      lastTestedAt: { type: DataTypes.DATE, allowNull: true },
      lastTestedPackage: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'PlayCredential', tableName: 'play_credentials' },
  );
  return BoundPlayCredential;
}
