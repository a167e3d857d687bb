import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { LegalDocumentKind } from '@aabify/shared';

/** A published version of the Termos de Uso or the Política de Privacidade (never changed once written). */
export class LegalDocument extends Model<InferAttributes<LegalDocument>, InferCreationAttributes<LegalDocument>> {
  declare id: CreationOptional<string>;
  declare kind: LegalDocumentKind;
  declare version: number;
  declare body: string;
  declare publishedById: string | null;
  /** A copy: the administrator may be deleted later. */
  declare publishedByEmail: string | null;
  declare publishedAt: CreationOptional<Date>;
}

export function defineLegalDocument(sequelize: Sequelize): typeof LegalDocument {
  class BoundLegalDocument extends LegalDocument {}
  BoundLegalDocument.init(
    {
      id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
      kind: { type: DataTypes.STRING(16), allowNull: false },
      version: { type: DataTypes.INTEGER, allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: false },
      publishedById: { type: DataTypes.UUID, allowNull: true },
      publishedByEmail: { type: DataTypes.STRING(255), allowNull: true },
      publishedAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    },
    { sequelize, modelName: 'LegalDocument', tableName: 'legal_documents', timestamps: false },
  );
  return BoundLegalDocument;
}

/** One acceptance of both documents by an account: the proof of consent (version, time, address). */
export class LegalAcceptance extends Model<InferAttributes<LegalAcceptance>, InferCreationAttributes<LegalAcceptance>> {
  /** BIGSERIAL, read as a string. */
  declare id: CreationOptional<string>;
  declare userId: string;
  declare termsVersion: number;
  declare privacyVersion: number;
  declare acceptedAt: CreationOptional<Date>;
  declare address: string | null;
  declare userAgent: string | null;
}

export function defineLegalAcceptance(sequelize: Sequelize): typeof LegalAcceptance {
  class BoundLegalAcceptance extends LegalAcceptance {}
  BoundLegalAcceptance.init(
    {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      userId: { type: DataTypes.UUID, allowNull: false },
      termsVersion: { type: DataTypes.INTEGER, allowNull: false },
      privacyVersion: { type: DataTypes.INTEGER, allowNull: false },
      acceptedAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      address: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
    },
    { sequelize, modelName: 'LegalAcceptance', tableName: 'legal_acceptances', timestamps: false },
  );
  return BoundLegalAcceptance;
}
