import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { PaymentStatus } from '@aabify/shared';

/** A charge on the sandbox provider's side (what Mercado Pago would keep on its servers). */
export class SandboxCharge extends Model<InferAttributes<SandboxCharge>, InferCreationAttributes<SandboxCharge>> {
  declare id: CreationOptional<string>;
  declare idempotencyKey: string;
  declare status: CreationOptional<PaymentStatus>;
  declare statusDetail: CreationOptional<string | null>;
  declare amountCents: number;
  declare description: CreationOptional<string>;
  declare payerEmail: CreationOptional<string | null>;
  declare externalReference: CreationOptional<string | null>;
  declare qrCode: string;
  declare expiresAt: Date;
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
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      payerEmail: { type: DataTypes.STRING(254), allowNull: true },
      externalReference: { type: DataTypes.STRING(64), allowNull: true },
      qrCode: { type: DataTypes.TEXT, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      approvedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'SandboxCharge', tableName: 'sandbox_charges' },
  );
  return BoundSandboxCharge;
}
