import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { RecordedCredential } from './recordedCredential.js';

/**
 * A ticket for one conversion event stream, minted by an authenticated call and redeemed once
 * within a minute (conversions/streamTickets.ts); only its SHA-256 is kept.
 */
export class StreamTicket extends Model<InferAttributes<StreamTicket>, InferCreationAttributes<StreamTicket>> {
  declare tokenHash: string;
  declare userId: string;
  declare conversionId: string;
  /** The credential that minted it (accounts/capabilities.ts), checked again at redemption. */
  declare credential: RecordedCredential;
  declare expiresAt: Date;
  declare usedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export function defineStreamTicket(sequelize: Sequelize): typeof StreamTicket {
  class BoundStreamTicket extends StreamTicket {}
  BoundStreamTicket.init(
    {
      tokenHash: { type: DataTypes.CHAR(64), primaryKey: true },
      userId: { type: DataTypes.UUID, allowNull: false },
      conversionId: { type: DataTypes.UUID, allowNull: false },
      credential: { type: DataTypes.JSONB, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'StreamTicket', tableName: 'stream_tickets', updatedAt: false },
  );
  return BoundStreamTicket;
}
