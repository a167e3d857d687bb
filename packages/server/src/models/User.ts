import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import type { EncryptedValue } from '../settings/crypto.js';
import { getPlanAccess, normalizeEmail, type BillingDetails, type PlanAccessInput, type PlanAccessStatus, type UserRole, type UserType } from '@aabify/shared';

/**
 * An account. `credits` is the free balance; credits held by running conversions sit in
 * `creditsReserved` until the conversion completes (spent) or fails (moved back).
 * `creditsOwed` (≤ creditsReserved) are reserved credits a refund took back: when their
 * conversion fails they pay the debt instead of returning to the balance.
 * `tokenVersion` is part of every session token: raising it signs the user out everywhere.
 * Always query through `ctx.models.User` (bound to the context's database), never this class.
 */
export interface RecoveryCode {
  /** SHA-256 (hex) of the normalised code (accounts/twoFactor.ts). */
  hash: string;
  /** ISO time it was used; null while unused. */
  usedAt: string | null;
}

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
  declare email: string;
  declare name: CreationOptional<string | null>;
  declare passwordHash: string;
  declare role: CreationOptional<UserRole>;
  declare isActive: CreationOptional<boolean>;
  declare tokenVersion: CreationOptional<number>;
  declare userType: CreationOptional<UserType | null>;
  declare credits: CreationOptional<number>;
  declare creditsReserved: CreationOptional<number>;
  declare creditsOwed: CreationOptional<number>;
  declare currentPlanId: CreationOptional<string | null>;
  declare currentPurchaseId: CreationOptional<string | null>;
  declare planActivatedAt: CreationOptional<Date | null>;
  declare subscriptionPlanId: CreationOptional<string | null>;
  declare subscriptionStartsAt: CreationOptional<Date | null>;
  declare subscriptionExpiresAt: CreationOptional<Date | null>;
  declare conversionsCount: CreationOptional<number>;
  declare monthlyConversions: CreationOptional<number>;
  /** 'YYYY-MM' (America/Sao_Paulo) that monthlyConversions counts; another month reads as 0. */
  declare monthlyConversionsMonth: CreationOptional<string | null>;
  declare lastLogin: CreationOptional<Date | null>;
  /**
   * Raised by one with every update, by the database (migration 0240): of two states of the row,
   * the higher is the newer (accounts/principalCache.ts). Never written by the application;
   * Postgres' bigint reads as a string.
   */
  declare rowVersion: CreationOptional<string>;
  /** When the address was confirmed by its link; null = not confirmed. */
  declare emailVerifiedAt: CreationOptional<Date | null>;
  /** E-mail when a long conversion ends (the account menu's switch). */
  declare notifyConversions: CreationOptional<boolean>;
  declare notifyConversionFailures: CreationOptional<boolean>;
  declare notifyProductNews: CreationOptional<boolean>;
  /** The latest Termos de Uso and Política de Privacidade versions the account accepted (legal/acceptance.ts). */
  declare termsAcceptedVersion: CreationOptional<number | null>;
  declare privacyAcceptedVersion: CreationOptional<number | null>;
  /** The authenticator's secret, encrypted (accounts/twoFactor.ts); in use once totpEnabledAt is set. */
  declare totpSecret: CreationOptional<EncryptedValue | null>;
  declare totpEnabledAt: CreationOptional<Date | null>;
  /** Time step of the last code accepted: no code is accepted twice. */
  declare totpLastStep: CreationOptional<number | null>;
  declare recoveryCodes: CreationOptional<RecoveryCode[]>;
  /** Dados de faturamento (Conta › Dados de faturamento); each purchase keeps its own copy (Purchase.billingSnapshot). */
  declare billingDetails: CreationOptional<BillingDetails | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare deletedAt: CreationOptional<Date | null>;
  /**
   * Set by authentication on the instance a request made with an API token gets (not stored):
   * such a request never acts with an administrator's rights (accounts/scopes.ts).
   */
  declare viaApiToken?: NonAttribute<boolean>;

  /** Whether this request may act as an administrator: the role, and never through an API token. */
  isAdmin(): boolean {
    return this.role === 'admin' && !this.viaApiToken;
  }

  /**
   * The account's role, whatever the credential: what the account is (admins convert without
   * credits), never what the request may do (isAdmin).
   */
  hasAdminRole(): boolean {
    return this.role === 'admin';
  }

  twoFactorEnabled(): boolean {
    return this.totpEnabledAt !== null && this.totpEnabledAt !== undefined;
  }

  planAccessInput(): PlanAccessInput {
    return {
      role: this.role,
      userType: this.userType,
      credits: this.credits,
      subscriptionPlanId: this.subscriptionPlanId,
      subscriptionExpiresAt: this.subscriptionExpiresAt,
    };
  }

  planAccess(now: Date = new Date()): PlanAccessStatus {
    return getPlanAccess(this.planAccessInput(), now);
  }
}

/** A User class bound to one database (each server context gets its own). */
export function defineUser(sequelize: Sequelize): typeof User {
  class BoundUser extends User {}
  BoundUser.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      email: {
        type: DataTypes.STRING(254),
        allowNull: false,
        set(value: string) {
          this.setDataValue('email', normalizeEmail(value));
        },
      },
      name: { type: DataTypes.STRING(100), allowNull: true },
      passwordHash: { type: DataTypes.STRING(255), allowNull: false },
      role: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'user' },
      isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      userType: { type: DataTypes.STRING(16), allowNull: true },
      credits: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      creditsReserved: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      creditsOwed: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      currentPlanId: { type: DataTypes.UUID, allowNull: true },
      currentPurchaseId: { type: DataTypes.UUID, allowNull: true },
      planActivatedAt: { type: DataTypes.DATE, allowNull: true },
      subscriptionPlanId: { type: DataTypes.UUID, allowNull: true },
      subscriptionStartsAt: { type: DataTypes.DATE, allowNull: true },
      subscriptionExpiresAt: { type: DataTypes.DATE, allowNull: true },
      conversionsCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      monthlyConversions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      monthlyConversionsMonth: { type: DataTypes.STRING(7), allowNull: true },
      lastLogin: { type: DataTypes.DATE, allowNull: true },
      rowVersion: { type: DataTypes.BIGINT, allowNull: false, defaultValue: '0' },
      emailVerifiedAt: { type: DataTypes.DATE, allowNull: true },
      notifyConversions: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      notifyConversionFailures: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      notifyProductNews: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      termsAcceptedVersion: { type: DataTypes.INTEGER, allowNull: true },
      privacyAcceptedVersion: { type: DataTypes.INTEGER, allowNull: true },
      totpSecret: { type: DataTypes.JSONB, allowNull: true },
      totpEnabledAt: { type: DataTypes.DATE, allowNull: true },
      totpLastStep: { type: DataTypes.INTEGER, allowNull: true },
      recoveryCodes: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      billingDetails: { type: DataTypes.JSONB, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
      deletedAt: DataTypes.DATE,
    },
    {
      sequelize,
      modelName: 'User',
      tableName: 'users',
      paranoid: true,
      hooks: {
        // A new password or a deactivation ends every session made before it. (Instance
        // saves only: a bulk Model.update must pass individualHooks: true.)
        beforeSave(user: User) {
          if (user.isNewRecord) return;
          if (user.changed('passwordHash') || (user.changed('isActive') && !user.isActive)) {
            user.tokenVersion = (user.tokenVersion ?? 0) + 1;
          }
        },
      },
    },
  );
  return BoundUser;
}
