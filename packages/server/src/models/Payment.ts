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
import type { Currency, PaymentProviderName, PaymentStatus } from '@aabify/shared';
import type { User } from './User.js';
import type { Purchase } from './Purchase.js';

/** A PIX charge of a purchase at a provider; mirrors the provider's last answer. */
export class Payment extends Model<InferAttributes<Payment>, InferCreationAttributes<Payment>> {
  declare id: CreationOptional<string>;
  declare purchaseId: ForeignKey<Purchase['id']>;
  declare userId: ForeignKey<User['id']>;
  declare provider: PaymentProviderName;
  declare providerPaymentId: CreationOptional<string | null>;
  declare status: CreationOptional<PaymentStatus>;
  declare providerStatus: CreationOptional<string | null>;
  declare providerStatusDetail: CreationOptional<string | null>;
  declare amountCents: number;
  declare currency: Currency;
  declare qrCode: CreationOptional<string | null>;
  declare qrCodeBase64: CreationOptional<string | null>;
  declare ticketUrl: CreationOptional<string | null>;
  declare expiresAt: Date;
  declare approvedAt: CreationOptional<Date | null>;
  declare lastSyncedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare purchase?: NonAttribute<Purchase>;

  isExpired(now: Date = new Date()): boolean {
    return this.status === 'pending' && this.expiresAt.getTime() <= now.getTime();
  }
}

export function definePayment(sequelize: Sequelize): typeof Payment {
  class BoundPayment extends Payment {}
  BoundPayment.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      provider: { type: DataTypes.STRING(16), allowNull: false },
      providerPaymentId: { type: DataTypes.STRING(64), allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      providerStatus: { type: DataTypes.STRING(32), allowNull: true },
      providerStatusDetail: { type: DataTypes.STRING(64), allowNull: true },
      amountCents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.STRING(3), allowNull: false },
      qrCode: { type: DataTypes.TEXT, allowNull: true },
      qrCodeBase64: { type: DataTypes.TEXT, allowNull: true },
      ticketUrl: { type: DataTypes.TEXT, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      approvedAt: { type: DataTypes.DATE, allowNull: true },
      lastSyncedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Payment', tableName: 'payments' },
  );
  return BoundPayment;
}
