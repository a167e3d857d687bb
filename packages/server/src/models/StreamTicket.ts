import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/**
 * A ticket for one conversion event stream, minted by an authenticated call and redeemed once
 * within a minute (conversions/streamTickets.ts); only its SHA-256 is kept.
 */
export class StreamTicket extends Model<InferAttributes<StreamTicket>, InferCreationAttributes<StreamTicket>> {
  declare tokenHash: string;
  declare userId: string;
  declare conversionId: string;
  /** Set when minted with an API token: revoking the token removes the ticket. */
  declare apiTokenId: string | null;
  /** The session's tokenVersion and expiry when minted with a session token. */
  declare tokenVersion: number | null;
  declare sessionExpiresAt: Date | null;
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
      apiTokenId: { type: DataTypes.UUID, allowNull: true },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: true },
      sessionExpiresAt: { type: DataTypes.DATE, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'StreamTicket', tableName: 'stream_tickets', updatedAt: false },
  );
  return BoundStreamTicket;
}
