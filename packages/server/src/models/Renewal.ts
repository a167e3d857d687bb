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
import type { Currency, PaymentProviderName, PlanSnapshot, RenewalStatus } from '@aabify/shared';
import type { User } from './User.js';

/**
 * An automatic renewal of a subscription plan: the payer authorized a provider (Mercado Pago's
 * preapproval, a Stripe subscription, the sandbox's) to charge the card every period. Each
 * charge is a purchase of its own (purchases.renewalId), which applies the plan once.
 */
export class Renewal extends Model<InferAttributes<Renewal>, InferCreationAttributes<Renewal>> {
  declare id: CreationOptional<string>;
  declare userId: ForeignKey<User['id']>;
  declare planId: string | null;
  declare planSnapshot: PlanSnapshot;
  declare provider: PaymentProviderName;
  /** The provider's id, once it made one (preapproval id, Stripe subscription id, sandbox checkout id). */
  declare providerRenewalId: CreationOptional<string | null>;
  declare status: CreationOptional<RenewalStatus>;
  declare amountCents: number;
  declare currency: Currency;
  declare frequencyMonths: number;
  declare checkoutUrl: CreationOptional<string | null>;
  declare lastChargedAt: CreationOptional<Date | null>;
  declare lastFailureAt: CreationOptional<Date | null>;
  declare lastFailureReason: CreationOptional<string | null>;
  declare cancelledAt: CreationOptional<Date | null>;
  declare cancelReason: CreationOptional<string | null>;
  declare lastSyncedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare user?: NonAttribute<User>;
}

export function defineRenewal(sequelize: Sequelize): typeof Renewal {
  class BoundRenewal extends Renewal {}
  BoundRenewal.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      planId: { type: DataTypes.UUID, allowNull: true },
      planSnapshot: { type: DataTypes.JSONB, allowNull: false },
      provider: { type: DataTypes.STRING(16), allowNull: false },
      providerRenewalId: { type: DataTypes.STRING(128), allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      amountCents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.STRING(3), allowNull: false },
      frequencyMonths: { type: DataTypes.INTEGER, allowNull: false },
      checkoutUrl: { type: DataTypes.TEXT, allowNull: true },
      lastChargedAt: { type: DataTypes.DATE, allowNull: true },
      lastFailureAt: { type: DataTypes.DATE, allowNull: true },
      lastFailureReason: { type: DataTypes.TEXT, allowNull: true },
      cancelledAt: { type: DataTypes.DATE, allowNull: true },
      cancelReason: { type: DataTypes.TEXT, allowNull: true },
      lastSyncedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Renewal', tableName: 'renewals' },
  );
  return BoundRenewal;
}
