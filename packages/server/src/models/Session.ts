import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import type { User } from './User.js';

/**
 * One signed-in session (a browser, a CLI sign-in), named by its token's jti
 * (accounts/sessions.ts). It holds while not ended, not expired and made under the user's
 * current tokenVersion.
 */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: string;
  declare userId: ForeignKey<User['id']>;
  /** The user's tokenVersion when it was made: raising it (password change …) ends it. */
  declare tokenVersion: number;
  declare createdAt: CreationOptional<Date>;
  declare expiresAt: Date;
  /** Written at most once a minute (accounts/sessions.ts). */
  declare lastUsedAt: CreationOptional<Date | null>;
  declare userAgent: CreationOptional<string | null>;
  declare address: CreationOptional<string | null>;
  declare endedAt: CreationOptional<Date | null>;
  /** When it last proved the password or a two-factor code (sign-in, POST /auth/reauth). */
  declare verifiedAt: CreationOptional<Date | null>;
  /** Limited to enrolling in two-factor sign-in until the account has it. */
  declare enrolmentRequired: CreationOptional<boolean>;
  declare user?: NonAttribute<User>;
}

export function defineSession(sequelize: Sequelize): typeof Session {
  class BoundSession extends Session {}
  BoundSession.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: false },
      createdAt: DataTypes.DATE,
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      address: { type: DataTypes.STRING(64), allowNull: true },
      endedAt: { type: DataTypes.DATE, allowNull: true },
      verifiedAt: { type: DataTypes.DATE, allowNull: true },
      enrolmentRequired: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    },
    { sequelize, modelName: 'Session', tableName: 'sessions', updatedAt: false },
  );
  return BoundSession;
}
