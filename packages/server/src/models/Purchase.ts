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
import type { Currency, PlanSnapshot, PlanType, PurchaseStatus, UserType } from '@aabify/shared';
import type { User } from './User.js';
import type { Plan } from './Plan.js';
import type { Payment } from './Payment.js';
import type { PurchaseTransition } from './PurchaseTransition.js';

export type PurchaseProvider = 'sandbox' | 'mercadopago' | 'manual';

/** What applying the plan changed on the user, kept so a refund can take back exactly that. */
export interface PlanGrant {
  type: PlanType;
  creditsAdded: number;
  previousUserType: UserType | null;
  previousExpiresAt: string | null;
  newExpiresAt: string | null;
  /** Set by a refund: credits taken from the free balance. */
  creditsTakenBack?: number;
  /** Set by a refund: credits held by running conversions, kept from coming back (users.creditsOwed). */
  creditsHeldBack?: number;
  subscriptionEndedAt?: string;
}

/** A user's purchase of a plan, with the plan as sold (planSnapshot). */
export class Purchase extends Model<InferAttributes<Purchase>, InferCreationAttributes<Purchase>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User['id']>;
  declare planId: CreationOptional<string | null>;
  declare planSnapshot: PlanSnapshot;
  declare amountCents: number;
  declare currency: Currency;
  declare status: CreationOptional<PurchaseStatus>;
  declare provider: PurchaseProvider;
  declare notes: CreationOptional<string | null>;
  declare planGrant: CreationOptional<PlanGrant | null>;
  declare appliedAt: CreationOptional<Date | null>;
  declare approvedAt: CreationOptional<Date | null>;
  declare rejectedAt: CreationOptional<Date | null>;
  declare cancelledAt: CreationOptional<Date | null>;
  declare refundedAt: CreationOptional<Date | null>;
  declare rejectionReason: CreationOptional<string | null>;
  declare refundReason: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare user?: NonAttribute<User>;
  declare plan?: NonAttribute<Plan | null>;
  declare payments?: NonAttribute<Payment[]>;
  declare transitions?: NonAttribute<PurchaseTransition[]>;
}

export function definePurchase(sequelize: Sequelize): typeof Purchase {
  class BoundPurchase extends Purchase {}
  BoundPurchase.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      planId: { type: DataTypes.UUID, allowNull: true },
      planSnapshot: { type: DataTypes.JSONB, allowNull: false },
      amountCents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.STRING(3), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      provider: { type: DataTypes.STRING(16), allowNull: false },
      notes: { type: DataTypes.TEXT, allowNull: true },
      planGrant: { type: DataTypes.JSONB, allowNull: true },
      appliedAt: { type: DataTypes.DATE, allowNull: true },
      approvedAt: { type: DataTypes.DATE, allowNull: true },
      rejectedAt: { type: DataTypes.DATE, allowNull: true },
      cancelledAt: { type: DataTypes.DATE, allowNull: true },
      refundedAt: { type: DataTypes.DATE, allowNull: true },
      rejectionReason: { type: DataTypes.TEXT, allowNull: true },
      refundReason: { type: DataTypes.TEXT, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Purchase', tableName: 'purchases' },
  );
  return BoundPurchase;
}
