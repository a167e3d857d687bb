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
import type { ApksReportJson, ConversionKind, ConversionOptions, ConversionReportJson, ConversionStatus } from '@aabify/shared';
import type { User } from './User.js';

/** A file of a set upload beside the first one (more split APKs, OBB files). */
export interface ConversionInputFile {
  key: string;
  fileName: string;
  size: number;
  obb: boolean;
}

/** The test APK a conversion keeps: where, how big, and what signed it. */
export interface TestApkRecord {
  key: string;
  size: number;
  testKey: boolean;
  certificateSha256: string;
  /** The upload key's alias, when it signed. */
  alias: string | null;
}

/** Where the credit a conversion holds is: none (subscription/admin), reserved, spent, returned. */
export type CreditState = 'none' | 'reserved' | 'spent' | 'returned';

/**
 * One conversion, from upload to purge: an APK (or split set) made into an AAB, or an AAB made
 * into an APK (`kind`). `aabKey`/`aabSize` hold the output of either kind. Query through
 * ctx.models.Conversion.
 */
export class Conversion extends Model<InferAttributes<Conversion>, InferCreationAttributes<Conversion>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User['id']>;
  declare fileName: string;
  declare fileSize: number;
  declare kind: CreationOptional<ConversionKind>;
  declare status: CreationOptional<ConversionStatus>;
  declare progress: CreationOptional<number>;
  declare step: CreationOptional<string | null>;
  declare options: CreationOptional<ConversionOptions>;
  declare creditState: CreationOptional<CreditState>;
  declare apkKey: CreationOptional<string | null>;
  declare inputFiles: CreationOptional<ConversionInputFile[] | null>;
  declare aabKey: CreationOptional<string | null>;
  declare aabSize: CreationOptional<number | null>;
  declare report: CreationOptional<ConversionReportJson | null>;
  /** AAB → APK: the APK's report. */
  declare apksReport: CreationOptional<ApksReportJson | null>;
  /** The universal APK built from the AAB to test it on a phone (conversions/testApk.ts). */
  declare testApk: CreationOptional<TestApkRecord | null>;
  declare error: CreationOptional<string | null>;
  declare errorCode: CreationOptional<string | null>;
  declare errorDetail: CreationOptional<string | null>;
  declare attempts: CreationOptional<number>;
  declare workerName: CreationOptional<string | null>;
  declare queuedAt: CreationOptional<Date | null>;
  declare processingStartedAt: CreationOptional<Date | null>;
  declare completedAt: CreationOptional<Date | null>;
  declare cancelledAt: CreationOptional<Date | null>;
  declare filesPurgedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare user?: NonAttribute<User>;

  /** Every stored input of the conversion: the first file and the others of a set. */
  get inputKeys(): NonAttribute<string[]> {
    return [...(this.apkKey ? [this.apkKey] : []), ...(this.inputFiles ?? []).map((f) => f.key)];
  }

  get canDownload(): NonAttribute<boolean> {
    return this.status === 'completed' && !!this.aabKey && !this.filesPurgedAt;
  }
}

// BIGINT columns come back from pg as strings; sizes stay far below 2^53.
const bigintNumber = (name: 'fileSize' | 'aabSize') => ({
  type: DataTypes.BIGINT,
  get(this: Conversion): number | null {
    const raw: unknown = this.getDataValue(name);
    return raw === null || raw === undefined ? null : Number(raw);
  },
});

export function defineConversion(sequelize: Sequelize): typeof Conversion {
  class BoundConversion extends Conversion {}
  BoundConversion.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      fileName: { type: DataTypes.STRING(255), allowNull: false },
      fileSize: { ...bigintNumber('fileSize'), allowNull: false },
      kind: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'apk-to-aab' },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      progress: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      step: { type: DataTypes.STRING(32), allowNull: true },
      options: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      creditState: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'none' },
      apkKey: { type: DataTypes.STRING(512), allowNull: true },
      inputFiles: { type: DataTypes.JSONB, allowNull: true },
      aabKey: { type: DataTypes.STRING(512), allowNull: true },
      aabSize: { ...bigintNumber('aabSize'), allowNull: true },
      report: { type: DataTypes.JSONB, allowNull: true },
      apksReport: { type: DataTypes.JSONB, allowNull: true },
      testApk: { type: DataTypes.JSONB, allowNull: true },
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
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Conversion', tableName: 'conversions' },
  );
  return BoundConversion;
}
