/**
 * Purchases, their payments at a provider and their status history: three models that refer to
 * one another, kept in one file.
 */
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
import type { BillingDetails, Currency, PaymentMethod, PaymentProviderName, PaymentStatus, PlanSnapshot, PlanType, PurchaseStatus, UserType } from '@aabify/shared';
import type { User } from './User.js';
import type { Plan } from './Plan.js';
import type { Renewal } from './Renewal.js';
import type { FiscalNote } from './FiscalNote.js';

export type PurchaseProvider = PaymentProviderName | 'manual';

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
  /** How it was paid: set at creation for PIX, by the payment a hosted checkout received otherwise. */
  declare method: CreationOptional<PaymentMethod | null>;
  declare installments: CreationOptional<number | null>;
  /** The hosted checkout at the provider (Mercado Pago preference, Stripe Checkout Session, sandbox checkout). */
  declare checkoutId: CreationOptional<string | null>;
  declare checkoutUrl: CreationOptional<string | null>;
  /** The automatic renewal this purchase is a period of. */
  declare renewalId: CreationOptional<string | null>;
  /** When a hosted checkout's payments were last read back from the provider. */
  declare lastSyncedAt: CreationOptional<Date | null>;
  declare notes: CreationOptional<string | null>;
  /** The buyer's billing details as they were when the purchase was made (receipts and NFS-e read these). */
  declare billingSnapshot: CreationOptional<BillingDetails | null>;
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
  declare renewal?: NonAttribute<Renewal | null>;
  declare fiscalNote?: NonAttribute<FiscalNote | null>;
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
      method: { type: DataTypes.STRING(16), allowNull: true },
      installments: { type: DataTypes.INTEGER, allowNull: true },
      checkoutId: { type: DataTypes.STRING(128), allowNull: true },
      checkoutUrl: { type: DataTypes.TEXT, allowNull: true },
      renewalId: { type: DataTypes.UUID, allowNull: true },
      lastSyncedAt: { type: DataTypes.DATE, allowNull: true },
      notes: { type: DataTypes.TEXT, allowNull: true },
      billingSnapshot: { type: DataTypes.JSONB, allowNull: true },
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

/** A payment of a purchase at a provider (a PIX charge, a card or boleto payment); mirrors the provider's last answer. */
export class Payment extends Model<InferAttributes<Payment>, InferCreationAttributes<Payment>> {
  declare id: CreationOptional<string>;
  declare purchaseId: ForeignKey<Purchase['id']>;
  declare userId: ForeignKey<User['id']>;
  declare provider: PaymentProviderName;
  declare providerPaymentId: CreationOptional<string | null>;
  declare status: CreationOptional<PaymentStatus>;
  declare method: CreationOptional<PaymentMethod>;
  declare installments: CreationOptional<number | null>;
  declare providerStatus: CreationOptional<string | null>;
  declare providerStatusDetail: CreationOptional<string | null>;
  declare amountCents: number;
  declare currency: Currency;
  declare qrCode: CreationOptional<string | null>;
  declare qrCodeBase64: CreationOptional<string | null>;
  /** PIX: the provider's page of the code; boleto: the boleto to print or pay. */
  declare ticketUrl: CreationOptional<string | null>;
  /** Our own expiry of a PIX charge; card and boleto payments end when their provider says. */
  declare expiresAt: CreationOptional<Date | null>;
  declare approvedAt: CreationOptional<Date | null>;
  declare lastSyncedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare purchase?: NonAttribute<Purchase>;

  isExpired(now: Date = new Date()): boolean {
    return this.status === 'pending' && this.expiresAt !== null && this.expiresAt.getTime() <= now.getTime();
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
      method: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pix' },
      installments: { type: DataTypes.INTEGER, allowNull: true },
      providerStatus: { type: DataTypes.STRING(32), allowNull: true },
      providerStatusDetail: { type: DataTypes.STRING(64), allowNull: true },
      amountCents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.STRING(3), allowNull: false },
      qrCode: { type: DataTypes.TEXT, allowNull: true },
      qrCodeBase64: { type: DataTypes.TEXT, allowNull: true },
      ticketUrl: { type: DataTypes.TEXT, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: true },
      approvedAt: { type: DataTypes.DATE, allowNull: true },
      lastSyncedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'Payment', tableName: 'payments' },
  );
  return BoundPayment;
}
