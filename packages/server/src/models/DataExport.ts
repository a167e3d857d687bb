import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { DataExportStatus } from '@aabify/shared';

/** One "Meus dados" export of an account: a zip in the store while it is kept (privacy/dataExport.ts). */
export class DataExport extends Model<InferAttributes<DataExport>, InferCreationAttributes<DataExport>> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare status: CreationOptional<DataExportStatus>;
  declare storageKey: string | null;
  /** BIGINT, read as a string. */
  declare size: string | null;
  /** Why the build failed (for the logs and admins; the customer sees a fixed text). */
  declare error: string | null;
  declare requestedAt: CreationOptional<Date>;
  declare readyAt: Date | null;
  declare expiresAt: Date | null;
}

export function defineDataExport(sequelize: Sequelize): typeof DataExport {
  class BoundDataExport extends DataExport {}
  BoundDataExport.init(
    {
      id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
      userId: { type: DataTypes.UUID, allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      storageKey: { type: DataTypes.STRING(255), allowNull: true },
      size: { type: DataTypes.BIGINT, allowNull: true },
      error: { type: DataTypes.TEXT, allowNull: true },
      requestedAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      readyAt: { type: DataTypes.DATE, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: true },
    },
    { sequelize, modelName: 'DataExport', tableName: 'data_exports', timestamps: false },
  );
  return BoundDataExport;
}
