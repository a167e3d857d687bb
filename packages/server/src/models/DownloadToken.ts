import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { RecordedCredential } from './recordedCredential.js';
import type { Conversion } from './Conversion.js';
import type { User } from './User.js';

export type DownloadFile = 'aab' | 'test-apk';

/**
 * A download link's token, valid for an hour; only its SHA-256 is kept, with the credential that
 * minted it (accounts/capabilities.ts): the link works only while that credential holds.
 */
export class DownloadToken extends Model<InferAttributes<DownloadToken>, InferCreationAttributes<DownloadToken>> {
  declare tokenHash: string;
  declare conversionId: ForeignKey<Conversion['id']>;
  declare userId: ForeignKey<User['id']>;
  declare credential: RecordedCredential;
  declare expiresAt: Date;
  /** Which of the conversion's files the link opens: its AAB, or the APK built to test it. */
  declare file: CreationOptional<DownloadFile>;
  declare createdAt: CreationOptional<Date>;
}

export function defineDownloadToken(sequelize: Sequelize): typeof DownloadToken {
  class BoundDownloadToken extends DownloadToken {}
  BoundDownloadToken.init(
    {
      tokenHash: { type: DataTypes.CHAR(64), primaryKey: true },
      credential: { type: DataTypes.JSONB, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      file: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'aab' },
      createdAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'DownloadToken', tableName: 'download_tokens', updatedAt: false },
  );
  return BoundDownloadToken;
}
