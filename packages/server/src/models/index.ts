/**
 * The model registry: every model class bound to one database, built once per context
 * (ctx.models). To add a model: define it in its own file with a `defineX(sequelize)`,
 * add it to `Models` and to `initModels`, and its associations to `associate`.
 */
import type { Sequelize } from 'sequelize';
import { defineUser, type User } from './User.js';
import { defineApiToken, type ApiToken } from './ApiToken.js';

export interface Models {
  User: typeof User;
  ApiToken: typeof ApiToken;
}

export function initModels(sequelize: Sequelize): Models {
  const models: Models = {
    User: defineUser(sequelize),
    ApiToken: defineApiToken(sequelize),
  };
  associate(models);
  return models;
}

function associate(m: Models): void {
  m.User.hasMany(m.ApiToken, { foreignKey: { name: 'userId', allowNull: false }, as: 'apiTokens', onDelete: 'CASCADE' });
  m.ApiToken.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
}

export { User } from './User.js';
export { ApiToken } from './ApiToken.js';
