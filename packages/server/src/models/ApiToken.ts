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
import { API_TOKEN_DEFAULT_SCOPES, type ApiTokenScope } from '@aabify/shared';
import type { User } from './User.js';

/** A personal API token: the secret is shown once; only its SHA-256 is kept. */
export class ApiToken extends Model<InferAttributes<ApiToken>, InferCreationAttributes<ApiToken>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User['id']>;
  declare name: string;
  declare tokenHash: string;
  declare prefix: string;
  /** What it may do (accountSecurity.ts in @aabify/shared; http/guards.ts checks it); fixed at creation. */
  declare scopes: CreationOptional<ApiTokenScope[]>;
  declare lastUsedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare user?: NonAttribute<User>;
}

export function defineApiToken(sequelize: Sequelize): typeof ApiToken {
  class BoundApiToken extends ApiToken {}
  BoundApiToken.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      name: { type: DataTypes.STRING(100), allowNull: false },
      tokenHash: { type: DataTypes.CHAR(64), allowNull: false, unique: true },
      prefix: { type: DataTypes.STRING(16), allowNull: false },
      scopes: { type: DataTypes.ARRAY(DataTypes.STRING(32)), allowNull: false, defaultValue: () => [...API_TOKEN_DEFAULT_SCOPES] },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'ApiToken', tableName: 'api_tokens' },
  );
  return BoundApiToken;
}
