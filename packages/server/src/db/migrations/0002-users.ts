import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Accounts. Emails are stored lowercased (checked) and unique among live accounts; deleted
 * accounts stay (deletedAt) so purchases and payments keep their owner.
 */
export const users: Migration = {
  name: '0002-users',
  async up(qi, sequelize) {
    await qi.createTable('users', {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: sequelize.literal('gen_random_uuid()') },
      email: { type: DataTypes.STRING(254), allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: true },
      passwordHash: { type: DataTypes.STRING(255), allowNull: false },
      role: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'user' },
      isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      userType: { type: DataTypes.STRING(16), allowNull: true },
      credits: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      creditsReserved: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      currentPlanId: { type: DataTypes.UUID, allowNull: true },
      currentPurchaseId: { type: DataTypes.UUID, allowNull: true },
      planActivatedAt: { type: DataTypes.DATE, allowNull: true },
      subscriptionPlanId: { type: DataTypes.UUID, allowNull: true },
      subscriptionStartsAt: { type: DataTypes.DATE, allowNull: true },
      subscriptionExpiresAt: { type: DataTypes.DATE, allowNull: true },
      conversionsCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      monthlyConversions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      monthlyConversionsMonth: { type: DataTypes.STRING(7), allowNull: true },
      lastLogin: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
      deletedAt: { type: DataTypes.DATE, allowNull: true },
    });
    await sequelize.query(`
      ALTER TABLE users
        ADD CONSTRAINT users_email_lowercase CHECK (email = lower(email)),
        ADD CONSTRAINT users_role_valid CHECK (role IN ('user', 'admin')),
        ADD CONSTRAINT users_user_type_valid CHECK ("userType" IS NULL OR "userType" IN ('credit', 'subscription')),
        ADD CONSTRAINT users_credits_not_negative CHECK (credits >= 0 AND "creditsReserved" >= 0)
    `);
    await sequelize.query(`CREATE UNIQUE INDEX users_email_unique ON users (email) WHERE "deletedAt" IS NULL`);
    await sequelize.query(`CREATE INDEX users_role ON users (role)`);
  },
  async down(qi) {
    await qi.dropTable('users');
  },
};
