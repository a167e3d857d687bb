/**
 * Accounts as the API's clients see them: limits and the JSON of a user. Their request schemas
 * are in accountSchemas.ts.
 */
import type { ApiTokenScope, TwoFactorChallengeResponse } from './accountSecurity.js';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;
export const API_TOKEN_PREFIX = 'aab_';
export const API_TOKEN_NAME_MAX_LENGTH = 100;
export const API_TOKENS_PER_USER = 20;

export const USER_ROLES = ['user', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const USER_TYPES = ['credit', 'subscription'] as const;
/** The kind of plan a user holds; null before the first plan. */
export type UserType = (typeof USER_TYPES)[number];

/** Whether a user may convert, from the plan fields alone (planAccess.ts); part of the user's JSON. */
export const PLAN_ACCESS_STATUSES = ['no_plan', 'no_credits', 'expired', 'active'] as const;
export type PlanAccessStatus = (typeof PLAN_ACCESS_STATUSES)[number];
/** What the dashboard shows while the user's plan is still loading. */
export type PlanAccessState = PlanAccessStatus | 'loading';

/** Emails are compared case-insensitively: every email is stored and looked up like this. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// ---- JSON the client sees --------------------------------------------------------------

/** Dates are ISO 8601 strings; ids are UUIDs. */
export interface ApiCurrentPlan {
  planId: string | null;
  purchaseId: string | null;
  type: UserType;
  /** Free credit balance (same number as credits.available). */
  credits: number;
  subscriptionDetails: { expiresAt: string | null };
  activatedAt: string | null;
}

export interface UsageSummary {
  hasActivePlan: boolean;
  userType: UserType | null;
  credits: number;
  remainingCredits: number;
  expiresAt: string | null;
  isExpired: boolean;
  planActivatedAt: string | null;
  planAccess: PlanAccessStatus;
}

export interface ApiUser {
  id: string;
  email: string;
  name: string | null;
  role: UserRole;
  isActive: boolean;
  userType: UserType | null;
  currentPlan: ApiCurrentPlan | null;
  credits: { available: number; reserved: number };
  subscription: { plan: string | null; startsAt: string | null; expiresAt: string | null };
  conversionsCount: number;
  /** Conversions in the current calendar month (America/Sao_Paulo). */
  monthlyConversions: number;
  lastLogin: string | null;
  /** The address was confirmed by its link (accounts older than e-mail count as confirmed). */
  emailVerified: boolean;
  /** E-mail when a conversion that took over a minute completes (Conta › Perfil). */
  notifyConversions: boolean;
  /** E-mail when a conversion that took over a minute fails. */
  notifyConversionFailures: boolean;
  /** Product news (no marketing). */
  notifyProductNews: boolean;
  /** Sign-in asks for a code of an authenticator app (Conta › Segurança). */
  twoFactorEnabled: boolean;
  /**
   * Only in the answers about the signed-in session (sign-in, /auth/me, /auth/verify): this
   * session may do nothing but enrol in two-factor sign-in (an administrator, where
   * accounts.requireAdminTwoFactor is on, without it).
   */
  twoFactorSetupRequired?: boolean;
  createdAt: string;
  updatedAt: string;
  usageSummary: UsageSummary;
}

/**
 * POST /auth/register: a new account is signed in at once (`{ token, expiresIn, user, message }`);
 * where the operator requires a confirmed e-mail (accounts.requireVerifiedEmail), no session is
 * given and a new and a taken address answer alike (`{ message, email }`). A taken address is
 * otherwise 409 EMAIL_TAKEN with `details` saying where to sign in or recover the password.
 */
export type RegisterResponse = (AuthResponse & { message: string }) | RegisterCheckEmailResponse;

/** The sign-up answer that says nothing of whether the address had an account. */
export interface RegisterCheckEmailResponse {
  message: string;
  email: string;
}

/** `details` of a sign-up's 409 EMAIL_TAKEN: the dashboard's paths to offer instead. */
export interface RegisterEmailTakenDetails {
  loginPath: string;
  forgotPasswordPath: string;
}

export function isRegisterSession(body: RegisterResponse): body is AuthResponse & { message: string } {
  return 'token' in body && typeof body.token === 'string';
}

/** GET /auth/reset-password/:token/status — never whose link it is. */
export interface ResetLinkStatusResponse {
  valid: boolean;
}

/** GET /auth/email-status: what the dashboard's confirmation banner needs. */
export interface EmailStatusResponse {
  emailVerified: boolean;
  /** accounts.requireVerifiedEmail: buying and converting wait for the confirmation. */
  verificationRequired: boolean;
}

/** POST /auth/resend-verification, and many more */
export interface MessageResponse {
  message: string;
}

/** POST /auth/forgot-password: the same answer whether or not the account exists. */
export interface ForgotPasswordResponse extends MessageResponse {
  /** False when this server delivers no e-mail: the customer is pointed to the support contact instead. */
  emailDelivery: boolean;
}

/**
 * POST /auth/verify-email: `message`; with the session fields when the link's holder proved the
 * account with its password or a new one (they are signed in to it) — or, on an account with
 * two-factor sign-in, the challenge to send with a code to POST /auth/login/2fa.
 */
export type VerifyEmailResponse = MessageResponse & Partial<AuthResponse> & Partial<TwoFactorChallengeResponse>;

export interface AuthResponse {
  token: string;
  /** Seconds until the token expires. */
  expiresIn: number;
  user: ApiUser;
}

/** A sign-in's answer: a session, or — with two-factor sign-in — the second step. */
export type SignInResponse = AuthResponse | TwoFactorChallengeResponse;

export interface SetupStatusResponse {
  requiresSetup: boolean;
}

export interface SetupResponse extends AuthResponse {
  success: true;
  message: string;
}

export interface ApiTokenJson {
  id: string;
  name: string;
  /** The first characters of the token, to recognise it in a list (never the secret). */
  prefix: string;
  /** What it may do (accountSecurity.ts); fixed when it was made. */
  scopes: ApiTokenScope[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface CreatedApiTokenResponse extends ApiTokenJson {
  /** The full token; shown only in this answer. */
  token: string;
  message: string;
}

/** The calendar month ('YYYY-MM', America/Sao_Paulo) that monthly conversion counts belong to. */
export function conversionMonthKey(date: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' }).formatToParts(date);
  const year = parts.find((p) => p.type === 'year')?.value ?? '0000';
  const month = parts.find((p) => p.type === 'month')?.value ?? '00';
  return `${year}-${month}`;
}
