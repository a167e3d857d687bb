import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** `email_change`: the link's `email` is the new address, which it confirms; the account's is the old one until it is followed. */
export type EmailLinkPurpose = 'password_reset' | 'email_verification' | 'email_change';

/** A single-use link sent by e-mail; only the SHA-256 of its token is kept (mail/links.ts). */
export class EmailLinkToken extends Model<InferAttributes<EmailLinkToken>, InferCreationAttributes<EmailLinkToken>> {
  declare tokenHash: string;
  declare userId: string;
  declare purpose: EmailLinkPurpose;
  declare email: string;
  declare expiresAt: Date;
  declare usedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export function defineEmailLinkToken(sequelize: Sequelize): typeof EmailLinkToken {
  class BoundEmailLinkToken extends EmailLinkToken {}
  BoundEmailLinkToken.init(
    {
      tokenHash: { type: DataTypes.CHAR(64), primaryKey: true },
      userId: { type: DataTypes.UUID, allowNull: false },
      purpose: { type: DataTypes.STRING(24), allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'EmailLinkToken', tableName: 'email_link_tokens', updatedAt: false },
  );
  return BoundEmailLinkToken;
}
