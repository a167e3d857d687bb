import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { EmailKind, EmailStatus } from '@aabify/shared';
import type { EncryptedValue } from '../settings/crypto.js';

/**
 * One e-mail of the outbox (mail/service.ts). `data` is the template's input; `secret` the
 * encrypted token of a single-use link, present only until delivery ends.
 */
export class EmailMessage extends Model<InferAttributes<EmailMessage>, InferCreationAttributes<EmailMessage>> {
  declare id: CreationOptional<string>;
  declare userId: string | null;
  declare kind: EmailKind;
  declare to: string;
  declare subject: string;
  declare data: Record<string, unknown>;
  declare secret: CreationOptional<EncryptedValue | null>;
  declare status: CreationOptional<EmailStatus>;
  declare attempts: CreationOptional<number>;
  declare lastError: CreationOptional<string | null>;
  declare dedupeKey: CreationOptional<string | null>;
  declare sentAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function defineEmailMessage(sequelize: Sequelize): typeof EmailMessage {
  class BoundEmailMessage extends EmailMessage {}
  BoundEmailMessage.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      userId: { type: DataTypes.UUID, allowNull: true },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      to: { type: DataTypes.STRING(254), allowNull: false },
      subject: { type: DataTypes.STRING(300), allowNull: false },
      data: { type: DataTypes.JSONB, allowNull: false },
      secret: { type: DataTypes.JSONB, allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'queued' },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      lastError: { type: DataTypes.TEXT, allowNull: true },
      dedupeKey: { type: DataTypes.STRING(200), allowNull: true },
      sentAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'EmailMessage', tableName: 'email_messages' },
  );
  return BoundEmailMessage;
}
