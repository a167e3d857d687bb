import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { FiscalNoteStatus } from '@aabify/shared';
import type { User } from './User.js';

export type FiscalNoteProvider = 'focusnfe';

/** The NFS-e of one approved purchase, mirroring its provider's last answer (docs/nfse.md). */
export class FiscalNote extends Model<InferAttributes<FiscalNote>, InferCreationAttributes<FiscalNote>> {
  declare id: CreationOptional<string>;
  declare purchaseId: ForeignKey<string>;
  declare userId: ForeignKey<User['id']>;
  declare provider: FiscalNoteProvider;
  /** Our reference of the note at the provider (its `ref`). */
  declare reference: string;
  declare status: CreationOptional<FiscalNoteStatus>;
  /** The provider's own status word (e.g. processando_autorizacao). */
  declare providerStatus: CreationOptional<string | null>;
  declare number: CreationOptional<string | null>;
  declare verificationCode: CreationOptional<string | null>;
  declare pdfUrl: CreationOptional<string | null>;
  declare xmlUrl: CreationOptional<string | null>;
  declare errorMessage: CreationOptional<string | null>;
  /** Requests that failed without an answer (network, provider down), counted against the retry budget. */
  declare attempts: CreationOptional<number>;
  /** When the provider accepted the request to issue it. */
  declare requestedAt: CreationOptional<Date | null>;
  declare authorizedAt: CreationOptional<Date | null>;
  declare cancelRequestedAt: CreationOptional<Date | null>;
  declare cancelledAt: CreationOptional<Date | null>;
  declare lastCheckedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function defineFiscalNote(sequelize: Sequelize): typeof FiscalNote {
  class BoundFiscalNote extends FiscalNote {}
  BoundFiscalNote.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      userId: { type: DataTypes.UUID, allowNull: false },
      provider: { type: DataTypes.STRING(16), allowNull: false },
      reference: { type: DataTypes.STRING(64), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'processando' },
      providerStatus: { type: DataTypes.STRING(40), allowNull: true },
      number: { type: DataTypes.STRING(40), allowNull: true },
      verificationCode: { type: DataTypes.STRING(80), allowNull: true },
      pdfUrl: { type: DataTypes.TEXT, allowNull: true },
      xmlUrl: { type: DataTypes.TEXT, allowNull: true },
      errorMessage: { type: DataTypes.TEXT, allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      requestedAt: { type: DataTypes.DATE, allowNull: true },
      authorizedAt: { type: DataTypes.DATE, allowNull: true },
      cancelRequestedAt: { type: DataTypes.DATE, allowNull: true },
      cancelledAt: { type: DataTypes.DATE, allowNull: true },
      lastCheckedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: 'FiscalNote', tableName: 'fiscal_notes' },
  );
  return BoundFiscalNote;
}
