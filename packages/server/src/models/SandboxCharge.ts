import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { Currency, PaymentMethod, PaymentStatus } from '@aabify/shared';

/** A payment on the sandbox provider's side (what Mercado Pago or Stripe would keep on its servers): a PIX charge, or a card or boleto payment made on a sandbox checkout. */
export class SandboxCharge extends Model<InferAttributes<SandboxCharge>, InferCreationAttributes<SandboxCharge>> {
  declare id: CreationOptional<string>;
  declare idempotencyKey: string;
  declare status: CreationOptional<PaymentStatus>;
  declare statusDetail: CreationOptional<string | null>;
  declare amountCents: number;
  declare method: CreationOptional<PaymentMethod>;
  declare currency: CreationOptional<Currency>;
  declare installments: CreationOptional<number | null>;
  declare checkoutId: CreationOptional<string | null>;
  declare description: CreationOptional<string>;
  declare payerEmail: CreationOptional<string | null>;
  declare externalReference: CreationOptional<string | null>;
  declare qrCode: CreationOptional<string | null>;
  declare expiresAt: CreationOptional<Date | null>;
  declare approvedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function defineSandboxCharge(sequelize: Sequelize): typeof SandboxCharge {
  class BoundSandboxCharge extends SandboxCharge {}
  BoundSandboxCharge.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      idempotencyKey: { type: DataTypes.STRING(128), allowNull: false, unique: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
      statusDetail: { type: DataTypes.STRING(64), allowNull: true },
      amountCents: { type: DataTypes.INTEGER, allowNull: false },
      method: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pix' },
      currency: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'BRL' },
      installments: { type: DataTypes.INTEGER, allowNull: true },
      checkoutId: { type: DataTypes.UUID, allowNull: true },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      payerEmail: { type: DataTypes.STRING(254), allowNull: true },
      externalReference: { type: DataTypes.STRING(64), allowNull: true },
      qrCode: { type: DataTypes.TEXT, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: true },
      approvedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'SandboxCharge', tableName: 'sandbox_charges' },
  );
  return BoundSandboxCharge;
}

export type SandboxCheckoutKind = 'payment' | 'renewal';
export type SandboxCheckoutStatus = 'open' | 'completed' | 'authorized' | 'cancelled';

/**
 * A hosted checkout on the sandbox's side: a one-off payment (what a Mercado Pago preference or
 * a Stripe Checkout Session is) or an automatic renewal to authorize (a preapproval, a Stripe
 * subscription). Its page is the dashboard's /sandbox/checkout/{id}.
 */
export class SandboxCheckout extends Model<InferAttributes<SandboxCheckout>, InferCreationAttributes<SandboxCheckout>> {
  declare id: CreationOptional<string>;
  declare idempotencyKey: string;
  declare kind: SandboxCheckoutKind;
  declare status: CreationOptional<SandboxCheckoutStatus>;
  declare amountCents: number;
  declare currency: Currency;
  declare description: CreationOptional<string>;
  declare payerEmail: CreationOptional<string | null>;
  declare externalReference: CreationOptional<string | null>;
  declare returnUrl: string;
  declare frequencyMonths: CreationOptional<number | null>;
  declare maxInstallments: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function defineSandboxCheckout(sequelize: Sequelize): typeof SandboxCheckout {
  class BoundSandboxCheckout extends SandboxCheckout {}
  BoundSandboxCheckout.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      idempotencyKey: { type: DataTypes.STRING(128), allowNull: false, unique: true },
      kind: { type: DataTypes.STRING(16), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'open' },
      amountCents: { type: DataTypes.INTEGER, allowNull: false },
      currency: { type: DataTypes.STRING(3), allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      payerEmail: { type: DataTypes.STRING(254), allowNull: true },
      externalReference: { type: DataTypes.STRING(64), allowNull: true },
      returnUrl: { type: DataTypes.TEXT, allowNull: false },
      frequencyMonths: { type: DataTypes.INTEGER, allowNull: true },
      maxInstallments: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'SandboxCheckout', tableName: 'sandbox_checkouts' },
  );
  return BoundSandboxCheckout;
}
