import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { Currency, PlanSnapshot, PlanType } from '@aabify/shared';

/**
 * A plan for sale. Price in integer cents; credits for credit plans, durationMonths for
 * subscriptions (the other one is null, checked by the table). Plans with sales are
 * deactivated, never destroyed; purchases keep a snapshot anyway.
 */
export class Plan extends Model<InferAttributes<Plan>, InferCreationAttributes<Plan>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare description: CreationOptional<string>;
  declare type: PlanType;
  declare priceCents: number;
  declare currency: CreationOptional<Currency>;
  declare credits: CreationOptional<number | null>;
  declare durationMonths: CreationOptional<number | null>;
  declare features: CreationOptional<string[]>;
  declare isPopular: CreationOptional<boolean>;
  declare displayOrder: CreationOptional<number>;
  declare isActive: CreationOptional<boolean>;
  declare salesCount: CreationOptional<number>;
  declare totalRevenueCents: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  snapshot(): PlanSnapshot {
    return {
      name: this.name,
      type: this.type,
      credits: this.type === 'credit' ? this.credits : null,
      duration: this.type === 'subscription' ? this.durationMonths : null,
      priceCents: this.priceCents,
      currency: this.currency,
    };
  }
}

export function definePlan(sequelize: Sequelize): typeof Plan {
  class BoundPlan extends Plan {}
  BoundPlan.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      name: { type: DataTypes.STRING(100), allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      type: { type: DataTypes.STRING(16), allowNull: false },
      priceCents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'BRL' },
      credits: { type: DataTypes.INTEGER, allowNull: true },
      durationMonths: { type: DataTypes.INTEGER, allowNull: true },
      features: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      isPopular: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      displayOrder: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      salesCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      totalRevenueCents: {
        type: DataTypes.BIGINT,
        allowNull: false,
        defaultValue: 0,
        // pg answers bigint as a string; revenue stays far below 2^53 cents.
        get(this: Plan) {
          return Number(this.getDataValue('totalRevenueCents') ?? 0);
        },
      },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Plan', tableName: 'plans' },
  );
  return BoundPlan;
}
