import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Publications of conversions to Google Play (play/publications.ts): who, when, which track and
 * release, the versionCode and what Play answered; their logs beside them, like a conversion's.
 */
export const publications: Migration = {
  name: '0111-publications',
  async up(qi) {
    await qi.createTable('publications', {
      id: { type: DataTypes.UUID, primaryKey: true },
      conversionId: { type: DataTypes.UUID, allowNull: false, references: { model: 'conversions', key: 'id' }, onDelete: 'CASCADE' },
      userId: { type: DataTypes.UUID, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      packageName: { type: DataTypes.STRING(255), allowNull: false },
      track: { type: DataTypes.STRING(100), allowNull: false },
      releaseStatus: { type: DataTypes.STRING(16), allowNull: false },
      rolloutPercent: { type: DataTypes.DOUBLE, allowNull: true },
      releaseName: { type: DataTypes.STRING(50), allowNull: true },
      releaseNotes: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      status: { type: DataTypes.STRING(16), allowNull: false },
      progress: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      step: { type: DataTypes.STRING(16), allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      versionCode: { type: DataTypes.INTEGER, allowNull: true },
      editId: { type: DataTypes.STRING(128), allowNull: true },
      playResponse: { type: DataTypes.JSONB, allowNull: true },
      error: { type: DataTypes.TEXT, allowNull: true },
      errorCode: { type: DataTypes.STRING(64), allowNull: true },
      errorDetail: { type: DataTypes.TEXT, allowNull: true },
      startedAt: { type: DataTypes.DATE, allowNull: true },
      completedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex('publications', ['conversionId', 'createdAt']);
    await qi.addIndex('publications', ['createdAt']);
    await qi.addIndex('publications', ['userId']);
    await qi.createTable('publication_logs', {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      publicationId: { type: DataTypes.UUID, allowNull: false, references: { model: 'publications', key: 'id' }, onDelete: 'CASCADE' },
      timestamp: { type: DataTypes.DATE, allowNull: false },
      level: { type: DataTypes.STRING(16), allowNull: false },
      step: { type: DataTypes.STRING(16), allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: false },
    });
    await qi.addIndex('publication_logs', ['publicationId', 'id']);
  },
  async down(qi) {
    await qi.dropTable('publication_logs');
    await qi.dropTable('publications');
  },
};
