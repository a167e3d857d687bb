import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Conversions: one row per uploaded APK, from upload to purge. `creditState` follows the
 * credit a conversion holds (reserved → spent | returned) so each move happens once.
 * Files live in storage under `apkKey` / `aabKey`; `filesPurgedAt` marks their removal.
 */
export const conversions: Migration = {
  name: '0020-conversions',
  async up(qi, sequelize) {
    await qi.createTable('conversions', {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: sequelize.literal('gen_random_uuid()') },
      userId: { type: DataTypes.UUID, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      fileSize: { type: DataTypes.BIGINT, allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      progress: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      step: { type: DataTypes.STRING(32), allowNull: true },
      options: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      creditState: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'none' },
      apkKey: { type: DataTypes.STRING(512), allowNull: true },
      aabKey: { type: DataTypes.STRING(512), allowNull: true },
      aabSize: { type: DataTypes.BIGINT, allowNull: true },
      report: { type: DataTypes.JSONB, allowNull: true },
      error: { type: DataTypes.TEXT, allowNull: true },
      errorCode: { type: DataTypes.STRING(64), allowNull: true },
      errorDetail: { type: DataTypes.TEXT, allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      workerName: { type: DataTypes.STRING(255), allowNull: true },
      queuedAt: { type: DataTypes.DATE, allowNull: true },
      processingStartedAt: { type: DataTypes.DATE, allowNull: true },
      completedAt: { type: DataTypes.DATE, allowNull: true },
      cancelledAt: { type: DataTypes.DATE, allowNull: true },
      filesPurgedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await sequelize.query(`
      ALTER TABLE conversions
        ADD CONSTRAINT conversions_status_valid CHECK (status IN ('pending', 'queued', 'processing', 'completed', 'failed', 'cancelled')),
        ADD CONSTRAINT conversions_credit_state_valid CHECK ("creditState" IN ('none', 'reserved', 'spent', 'returned')),
        ADD CONSTRAINT conversions_progress_range CHECK (progress BETWEEN 0 AND 100)
    `);
    await sequelize.query(`CREATE INDEX conversions_user_created ON conversions ("userId", "createdAt" DESC)`);
    await sequelize.query(`CREATE INDEX conversions_active ON conversions (status, "queuedAt") WHERE status IN ('pending', 'queued', 'processing')`);
    await sequelize.query(`CREATE INDEX conversions_completed ON conversions ("completedAt" DESC) WHERE status = 'completed'`);
    await sequelize.query(`CREATE INDEX conversions_purge ON conversions ("createdAt") WHERE "filesPurgedAt" IS NULL`);
  },
  async down(qi) {
    await qi.dropTable('conversions');
  },
};
