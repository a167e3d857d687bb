import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { PlayPublishStatus, PublicationLogEntry, PublicationStatus, ReleaseNote } from '@aabify/shared';

/** One publication of a conversion's AAB to a Google Play track (play/publications.ts, run by play/publicationRunner.ts). */
export class Publication extends Model<InferAttributes<Publication>, InferCreationAttributes<Publication>> {
  declare id: CreationOptional<string>;
  declare conversionId: string;
  declare userId: string;
  declare packageName: string;
  declare track: string;
  declare releaseStatus: PlayPublishStatus;
  declare rolloutPercent: number | null;
  declare releaseName: string | null;
  declare releaseNotes: ReleaseNote[];
  declare status: PublicationStatus;
  declare progress: CreationOptional<number>;
  declare step: CreationOptional<string | null>;
  declare attempts: CreationOptional<number>;
  /** The instance running it while processing (jobs/claim.ts). */
  declare workerName: CreationOptional<string | null>;
  declare versionCode: CreationOptional<number | null>;
  declare editId: CreationOptional<string | null>;
  declare playResponse: CreationOptional<Record<string, unknown> | null>;
  declare error: CreationOptional<string | null>;
  declare errorCode: CreationOptional<string | null>;
  declare errorDetail: CreationOptional<string | null>;
  declare startedAt: CreationOptional<Date | null>;
  declare completedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function definePublication(sequelize: Sequelize): typeof Publication {
  class BoundPublication extends Publication {}
  BoundPublication.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      conversionId: { type: DataTypes.UUID, allowNull: false },
      userId: { type: DataTypes.UUID, allowNull: false },
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
      workerName: { type: DataTypes.STRING(255), allowNull: true },
      versionCode: { type: DataTypes.INTEGER, allowNull: true },
      editId: { type: DataTypes.STRING(128), allowNull: true },
      playResponse: { type: DataTypes.JSONB, allowNull: true },
      error: { type: DataTypes.TEXT, allowNull: true },
      errorCode: { type: DataTypes.STRING(64), allowNull: true },
      errorDetail: { type: DataTypes.TEXT, allowNull: true },
      startedAt: { type: DataTypes.DATE, allowNull: true },
      completedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Publication', tableName: 'publications' },
  );
  return BoundPublication;
}

/** One line of a publication's log. */
export class PublicationLog extends Model<InferAttributes<PublicationLog>, InferCreationAttributes<PublicationLog>> {
  declare id: CreationOptional<number>;
  declare publicationId: string;
  declare timestamp: Date;
  declare level: PublicationLogEntry['level'];
  declare step: string | null;
  declare message: string;
}

export function definePublicationLog(sequelize: Sequelize): typeof PublicationLog {
  class BoundPublicationLog extends PublicationLog {}
  BoundPublicationLog.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      publicationId: { type: DataTypes.UUID, allowNull: false },
      timestamp: { type: DataTypes.DATE, allowNull: false },
      level: { type: DataTypes.STRING(16), allowNull: false },
      step: { type: DataTypes.STRING(16), allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, modelName: 'PublicationLog', tableName: 'publication_logs', timestamps: false },
  );
  return BoundPublicationLog;
}
