/**
 * Accounts as the API's clients see them: limits, request schemas (the same yup schemas
 * validate the server's requests and the dashboard's formik forms) and the JSON of a user.
 */
import { boolean, object, ref, string, type InferType } from 'yup';
import { ACCOUNT_MESSAGES as M } from './messages.js';
import { EMAIL_MESSAGES } from './emailMessages.js';
import type { PlanAccessStatus } from './planAccess.js';

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

/** Emails are compared case-insensitively: every email is stored and looked up like this. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// ---- request schemas -------------------------------------------------------------------

// Transforms guard their input: a non-string (e.g. an object sent by a client) must reach
// the type check and answer 400, not throw inside the transform.
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

const email = () =>
  string()
    .transform((v: unknown) => (typeof v === 'string' ? normalizeEmail(v) : v))
    .required(M.emailRequired)
    .max(EMAIL_MAX_LENGTH, M.emailTooLong)
    .email(M.emailInvalid);

const newPassword = (minMessage: string, requiredMessage: string) =>
  string().required(requiredMessage).min(PASSWORD_MIN_LENGTH, minMessage).max(PASSWORD_MAX_LENGTH, M.passwordTooLong);

/** The server accepts a confirmation when sent (it must match); the forms require it. */
const optionalConfirmation = (field: string) => string().optional().oneOf([ref(field)], M.passwordsDontMatch);
const requiredConfirmation = (field: string) => string().required(M.confirmPasswordRequired).oneOf([ref(field)], M.passwordsDontMatch);

/** POST /auth/login */
export const loginSchema = object({
  email: email(),
  password: string().required(M.passwordRequired).max(1024, M.passwordTooLong),
});
export type LoginRequest = InferType<typeof loginSchema>;

/** An optional person's name: blank is no name. */
const optionalName = () =>
  string()
    .transform((v: unknown) => {
      const t = trimmed(v);
      return t === '' ? undefined : t;
    })
    .max(NAME_MAX_LENGTH, M.nameTooLong)
    .optional();

/** POST /auth/register (the name is optional: the greeting and the top bar use it). */
export const registerSchema = object({
  name: optionalName(),
  email: email(),
  password: newPassword(M.passwordMin, M.passwordRequired),
  confirmPassword: optionalConfirmation('password'),
});
export type RegisterRequest = InferType<typeof registerSchema>;
export const registerFormSchema = registerSchema.shape({ confirmPassword: requiredConfirmation('password') });

/** POST /setup/initialize (the first administrator). */
export const setupSchema = object({
  name: string()
    .transform((v: unknown) => {
      const t = trimmed(v);
      return t === '' ? undefined : t;
    })
    .max(NAME_MAX_LENGTH, M.nameTooLong)
    .default(M.setupDefaultName),
  email: email(),
  password: newPassword(M.setupPasswordMin, M.passwordRequired),
  confirmPassword: optionalConfirmation('password'),
});
export type SetupRequest = InferType<typeof setupSchema>;
export const setupFormSchema = setupSchema.shape({ confirmPassword: requiredConfirmation('password') });

/** PATCH /auth/change-password (own password). */
export const changePasswordSchema = object({
  currentPassword: string().required(M.currentPasswordRequired).max(1024, M.passwordTooLong),
  newPassword: newPassword(M.newPasswordMin, M.newPasswordMin).notOneOf([ref('currentPassword')], M.newPasswordSameAsCurrent),
  confirmPassword: optionalConfirmation('newPassword'),
});
export type ChangePasswordRequest = InferType<typeof changePasswordSchema>;
export const changePasswordFormSchema = changePasswordSchema.shape({ confirmPassword: requiredConfirmation('newPassword') });

/** POST /auth/tokens */
export const createApiTokenSchema = object({
  name: string().transform(trimmed).required(M.apiTokenNameRequired).max(API_TOKEN_NAME_MAX_LENGTH, M.apiTokenNameTooLong),
});
export type CreateApiTokenRequest = InferType<typeof createApiTokenSchema>;

/** POST /auth/forgot-password */
export const forgotPasswordSchema = object({ email: email() });
export type ForgotPasswordRequest = InferType<typeof forgotPasswordSchema>;

/** The secret of an e-mailed link (password reset, address confirmation): 256 random bits, base64url. */
const linkToken = (invalidMessage: string) =>
  string()
    .required(EMAIL_MESSAGES.linkTokenRequired)
    .matches(/^[A-Za-z0-9_-]{32,128}$/, { message: invalidMessage, excludeEmptyString: true });

/** POST /auth/reset-password (the password rules of registration). */
export const resetPasswordSchema = object({
  token: linkToken(EMAIL_MESSAGES.resetLinkInvalid),
  password: newPassword(M.passwordMin, M.passwordRequired),
  confirmPassword: optionalConfirmation('password'),
});
export type ResetPasswordRequest = InferType<typeof resetPasswordSchema>;
export const resetPasswordFormSchema = resetPasswordSchema.shape({ confirmPassword: requiredConfirmation('password') });

/** POST /auth/verify-email */
export const verifyEmailSchema = object({ token: linkToken(EMAIL_MESSAGES.verifyLinkInvalid) });
export type VerifyEmailRequest = InferType<typeof verifyEmailSchema>;

/** PATCH /account/preferences */
export const accountPreferencesSchema = object({
  notifyConversions: boolean().strict().required(),
});
export type AccountPreferencesRequest = InferType<typeof accountPreferencesSchema>;

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
  /** E-mail when a conversion that took over a minute ends (the account menu's switch). */
  notifyConversions: boolean;
  createdAt: string;
  updatedAt: string;
  usageSummary: UsageSummary;
}

/** POST /auth/register: the same answer for a new and a taken address. */
export interface RegisterResponse {
  message: string;
  email: string;
}

/** GET /auth/email-status: what the dashboard's confirmation banner needs. */
export interface EmailStatusResponse {
  emailVerified: boolean;
  /** accounts.requireVerifiedEmail: buying and converting wait for the confirmation. */
  verificationRequired: boolean;
}

/** POST /auth/forgot-password, /auth/resend-verification, /auth/verify-email */
export interface MessageResponse {
  message: string;
}

export interface AuthResponse {
  token: string;
  /** Seconds until the token expires. */
  expiresIn: number;
  user: ApiUser;
}

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
