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
import type { PurchaseStatus } from '@aabify/shared';
import type { Purchase } from './Purchase.js';

/** One status change of a purchase: when, from what, why and by whom. Written, never edited. */
export class PurchaseTransition extends Model<InferAttributes<PurchaseTransition>, InferCreationAttributes<PurchaseTransition>> {
  declare id: CreationOptional<string>;
  declare purchaseId: ForeignKey<Purchase['id']>;
  declare fromStatus: PurchaseStatus | null;
  declare toStatus: PurchaseStatus;
  declare reason: string;
  /** 'user:<id>', 'admin:<id>', 'webhook', 'job:payments:expire', 'system'. */
  declare actor: string;
  declare at: CreationOptional<Date>;

  declare purchase?: NonAttribute<Purchase>;
}

export function definePurchaseTransition(sequelize: Sequelize): typeof PurchaseTransition {
  class BoundPurchaseTransition extends PurchaseTransition {}
  BoundPurchaseTransition.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      fromStatus: { type: DataTypes.STRING(16), allowNull: true },
      toStatus: { type: DataTypes.STRING(16), allowNull: false },
      reason: { type: DataTypes.TEXT, allowNull: false },
      actor: { type: DataTypes.STRING(80), allowNull: false },
      at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    },
    { sequelize, modelName: 'PurchaseTransition', tableName: 'purchase_transitions', timestamps: false },
  );
  return BoundPurchaseTransition;
}
