import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { ConversionLogLevel } from '@aabify/shared';
import type { Conversion } from './Conversion.js';

/** One line of a conversion's log (at most 200 kept per conversion: see conversions/logs.ts). */
export class ConversionLog extends Model<InferAttributes<ConversionLog>, InferCreationAttributes<ConversionLog>> {
  declare id: CreationOptional<string>;
  declare conversionId: ForeignKey<Conversion['id']>;
  declare timestamp: Date;
  declare level: ConversionLogLevel;
  declare step: string | null;
  declare message: string;
}

export function defineConversionLog(sequelize: Sequelize): typeof ConversionLog {
  class BoundConversionLog extends ConversionLog {}
  BoundConversionLog.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      timestamp: { type: DataTypes.DATE, allowNull: false },
      level: { type: DataTypes.STRING(16), allowNull: false },
      step: { type: DataTypes.STRING(32), allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, modelName: 'ConversionLog', tableName: 'conversion_logs', timestamps: false },
  );
  return BoundConversionLog;
}
