/**
 * The model registry: every model class bound to one database, built once per context
 * (ctx.models). To add a model: define it in its own file with a `defineX(sequelize)`,
 * add it to `Models` and to `initModels`, and its associations to `associate`.
 */
import type { Sequelize } from 'sequelize';
import { defineUser, type User } from './User.js';
import { defineApiToken, type ApiToken } from './ApiToken.js';
import { definePlan, type Plan } from './Plan.js';
import { definePurchase, type Purchase } from './Purchase.js';
import { definePurchaseTransition, type PurchaseTransition } from './PurchaseTransition.js';
import { definePayment, type Payment } from './Payment.js';
import { defineSandboxCharge, type SandboxCharge } from './SandboxCharge.js';
import { associatePayments } from './paymentAssociations.js';
import { defineConversion, type Conversion } from './Conversion.js';
import { defineConversionLog, type ConversionLog } from './ConversionLog.js';
import { defineDownloadToken, type DownloadToken } from './DownloadToken.js';
import { associateConversions } from './conversionAssociations.js';
import { defineUserKeystore, type UserKeystore } from './UserKeystore.js';
import { defineEmailMessage, type EmailMessage } from './EmailMessage.js';
import { defineEmailLinkToken, type EmailLinkToken } from './EmailLinkToken.js';
import { defineStreamTicket, type StreamTicket } from './StreamTicket.js';
import { definePlayCredential, type PlayCredential } from './PlayCredential.js';
import { definePublication, definePublicationLog, type Publication, type PublicationLog } from './Publication.js';

export interface Models {
  User: typeof User;
  ApiToken: typeof ApiToken;
  Plan: typeof Plan;
  Purchase: typeof Purchase;
  PurchaseTransition: typeof PurchaseTransition;
  Payment: typeof Payment;
  SandboxCharge: typeof SandboxCharge;
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
}

export function initModels(sequelize: Sequelize): Models {
  const models: Models = {
    User: defineUser(sequelize),
    ApiToken: defineApiToken(sequelize),
    Plan: definePlan(sequelize),
    Purchase: definePurchase(sequelize),
    PurchaseTransition: definePurchaseTransition(sequelize),
    Payment: definePayment(sequelize),
    SandboxCharge: defineSandboxCharge(sequelize),
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
  };
  associate(models);
  return models;
}

function associate(m: Models): void {
  m.User.hasMany(m.ApiToken, { foreignKey: { name: 'userId', allowNull: false }, as: 'apiTokens', onDelete: 'CASCADE' });
  m.ApiToken.belongsTo(m.User, { foreignKey: { name: 'userId', allowNull: false }, as: 'user' });
  associatePayments(m);
  associateConversions(m);
}

export { User, type EndedSession } from './User.js';
export { ApiToken } from './ApiToken.js';
export { Plan } from './Plan.js';
export { Purchase, type PlanGrant, type PurchaseProvider } from './Purchase.js';
export { PurchaseTransition } from './PurchaseTransition.js';
export { Payment } from './Payment.js';
export { SandboxCharge } from './SandboxCharge.js';
export { Conversion, type CreditState } from './Conversion.js';
export { ConversionLog } from './ConversionLog.js';
export { DownloadToken } from './DownloadToken.js';
export { UserKeystore } from './UserKeystore.js';
export { EmailMessage } from './EmailMessage.js';
export { EmailLinkToken, type EmailLinkPurpose } from './EmailLinkToken.js';
export { StreamTicket } from './StreamTicket.js';
export { PlayCredential } from './PlayCredential.js';
export { Publication, PublicationLog } from './Publication.js';
