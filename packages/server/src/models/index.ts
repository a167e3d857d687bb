/**
 * The model registry: every model class bound to one database, built once per context
 * (ctx.models). To add a model: define it in its own file with a `defineX(sequelize)`,
 * add it to `Models` and to `initModels`, and its associations to `associate`.
 */
import type { Sequelize } from 'sequelize';
import { defineUser, type User } from './User.js';
import { defineApiToken, type ApiToken } from './ApiToken.js';
import { defineSession, type Session } from './Session.js';
import { definePlan, type Plan } from './Plan.js';
import { definePayment, definePurchase, definePurchaseTransition, type Payment, type Purchase, type PurchaseTransition } from './Purchase.js';
import { defineSandboxCharge, defineSandboxCheckout, type SandboxCharge, type SandboxCheckout } from './SandboxCharge.js';
import { defineRenewal, type Renewal } from './Renewal.js';
import { defineConversion, type Conversion } from './Conversion.js';
import { defineConversionLog, type ConversionLog } from './ConversionLog.js';
import { defineDownloadToken, type DownloadToken } from './DownloadToken.js';
import { defineUserKeystore, type UserKeystore } from './UserKeystore.js';
import { defineEmailMessage, type EmailMessage } from './EmailMessage.js';
import { defineEmailLinkToken, type EmailLinkToken } from './EmailLinkToken.js';
import { defineStreamTicket, type StreamTicket } from './StreamTicket.js';
import { definePlayCredential, type PlayCredential } from './PlayCredential.js';
import { definePublication, definePublicationLog, type Publication, type PublicationLog } from './Publication.js';
import { defineAuditEvent, type AuditEvent } from './AuditEvent.js';
import { defineLegalAcceptance, defineLegalDocument, type LegalAcceptance, type LegalDocument } from './LegalDocument.js';
import { defineDataExport, type DataExport } from './DataExport.js';

export interface Models {
  User: typeof User;
  ApiToken: typeof ApiToken;
  Session: typeof Session;
  Plan: typeof Plan;
  Purchase: typeof Purchase;
  PurchaseTransition: typeof PurchaseTransition;
  Payment: typeof Payment;
  SandboxCharge: typeof SandboxCharge;
  SandboxCheckout: typeof SandboxCheckout;
  Renewal: typeof Renewal;
  Conversion: typeof Conversion;
  ConversionLog: typeof ConversionLog;
  DownloadToken: typeof DownloadToken;
  UserKeystore: typeof UserKeystore;
  EmailMessage: typeof EmailMessage;
  EmailLinkToken: typeof EmailLinkToken;
  StreamTicket: typeof StreamTicket;
  PlayCredential: typeof PlayCredential;
  Publication: typeof Publication;
  PublicationLog: typeof PublicationLog;
  AuditEvent: typeof AuditEvent;
  LegalDocument: typeof LegalDocument;
  LegalAcceptance: typeof LegalAcceptance;
  DataExport: typeof DataExport;
}

export function initModels(sequelize: Sequelize): Models {
  const models: Models = {
    User: defineUser(sequelize),
    ApiToken: defineApiToken(sequelize),
    Session: defineSession(sequelize),
    Plan: definePlan(sequelize),
    Purchase: definePurchase(sequelize),
    PurchaseTransition: definePurchaseTransition(sequelize),
    Payment: definePayment(sequelize),
    SandboxCharge: defineSandboxCharge(sequelize),
    SandboxCheckout: defineSandboxCheckout(sequelize),
    Renewal: defineRenewal(sequelize),
    Conversion: defineConversion(sequelize),
    ConversionLog: defineConversionLog(sequelize),
    DownloadToken: defineDownloadToken(sequelize),
    UserKeystore: defineUserKeystore(sequelize),
    EmailMessage: defineEmailMessage(sequelize),
    EmailLinkToken: defineEmailLinkToken(sequelize),
    StreamTicket: defineStreamTicket(sequelize),
    PlayCredential: definePlayCredential(sequelize),
    Publication: definePublication(sequelize),
    PublicationLog: definePublicationLog(sequelize),
    AuditEvent: defineAuditEvent(sequelize),
    LegalDocument: defineLegalDocument(sequelize),
    LegalAcceptance: defineLegalAcceptance(sequelize),
    DataExport: defineDataExport(sequelize),
  };
  associate(models);
  return models;
}

function associate(m: Models): void {
  m.User.hasMany(m.ApiToken, { foreignKey: { name: 'userId', allowNull: false }, as: 'apiTokens', onDelete: 'CASCADE' });
  m.ApiToken.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.User.hasMany(m.Session, { foreignKey: { name: 'userId', allowNull: false }, as: 'sessions', onDelete: 'CASCADE' });
  m.Session.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  // Plans, purchases and payments.
  m.Purchase.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.Purchase.belongsTo(m.Plan, { foreignKey: { name: 'planId', allowNull: true }, as: 'plan' });
  m.Purchase.hasMany(m.Payment, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'payments' });
  m.Purchase.hasMany(m.PurchaseTransition, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'transitions' });
  m.Payment.belongsTo(m.Purchase, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'purchase' });
  m.Payment.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.PurchaseTransition.belongsTo(m.Purchase, { foreignKey: { name: 'purchaseId', allowNull: false }, as: 'purchase' });
  m.Purchase.belongsTo(m.Renewal, { foreignKey: { name: 'renewalId', allowNull: true }, as: 'renewal' });
  m.Renewal.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  // Conversions belong to a user; logs and download tokens to a conversion.
  m.User.hasMany(m.Conversion, { foreignKey: { name: 'userId', allowNull: false }, as: 'conversions', onDelete: 'CASCADE' });
  m.Conversion.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  m.Conversion.hasMany(m.ConversionLog, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'logs', onDelete: 'CASCADE' });
  m.ConversionLog.belongsTo(m.Conversion, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'conversion' });
  m.Conversion.hasMany(m.DownloadToken, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'downloadTokens', onDelete: 'CASCADE' });
  m.DownloadToken.belongsTo(m.Conversion, { foreignKey: { name: 'conversionId', allowNull: false }, as: 'conversion' });
  m.DownloadToken.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
}

export { User, type RecoveryCode } from './User.js';
export { ApiToken } from './ApiToken.js';
export { Session } from './Session.js';
export { Plan } from './Plan.js';
export { Payment, Purchase, PurchaseTransition, type PlanGrant, type PurchaseProvider } from './Purchase.js';
export { SandboxCharge, SandboxCheckout, type SandboxCheckoutKind, type SandboxCheckoutStatus } from './SandboxCharge.js';
export { Renewal } from './Renewal.js';
export { Conversion, type CreditState, type TestApkRecord } from './Conversion.js';
export { ConversionLog } from './ConversionLog.js';
export { DownloadToken, type DownloadFile } from './DownloadToken.js';
export { UserKeystore } from './UserKeystore.js';
export { EmailMessage } from './EmailMessage.js';
export { EmailLinkToken, type EmailLinkPurpose } from './EmailLinkToken.js';
export { StreamTicket } from './StreamTicket.js';
export type { RecordedCredential } from './recordedCredential.js';
export { PlayCredential } from './PlayCredential.js';
export { Publication, PublicationLog } from './Publication.js';
export { AuditEvent } from './AuditEvent.js';
export { LegalAcceptance, LegalDocument } from './LegalDocument.js';
export { DataExport } from './DataExport.js';
