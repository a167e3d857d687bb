/**
 * The request schemas of accounts (accounts.ts): the same yup schemas validate the server's
 * requests and the dashboard's formik forms. Kept apart from the limits and types, which the CLI
 * imports at start without building schemas (index.ts).
 */
import { boolean, object, ref, string, type InferType } from 'yup';
import { API_TOKEN_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, normalizeEmail } from './accounts.js';
import { ACCOUNT_MESSAGES as M } from './messages.js';
import { EMAIL_MESSAGES } from './emailMessages.js';
import { HIDDEN_CHARACTERS } from './hiddenCharacters.js';

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
const requiredConfirmation = (field: string) => string().required(M.passwordsDontMatch).oneOf([ref(field)], M.passwordsDontMatch);

/** POST /auth/login */
export const loginSchema = object({
  email: email(),
  password: string().required(M.passwordRequired).max(1024, M.passwordTooLong),
});
export type LoginRequest = InferType<typeof loginSchema>;

/** A person's name, trimmed and without control or bidi characters: blank is no name. */
const personName = () =>
  string()
    .transform((v: unknown) => {
      const t = trimmed(typeof v === 'string' ? v.replace(HIDDEN_CHARACTERS, ' ') : v);
      return t === '' ? undefined : t;
    })
    .max(NAME_MAX_LENGTH, M.nameTooLong);

/** POST /auth/register (the name is optional: the greeting and the top bar use it). */
export const registerSchema = object({
  name: personName().optional(),
  email: email(),
  password: newPassword(M.passwordMin, M.passwordRequired),
  confirmPassword: optionalConfirmation('password'),
});
export type RegisterRequest = InferType<typeof registerSchema>;
export const registerFormSchema = registerSchema.shape({ confirmPassword: requiredConfirmation('password') });

/** POST /setup/initialize (the first administrator). */
export const setupSchema = object({
  name: personName().default(M.setupDefaultName),
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

/**
 * POST /auth/verify-email. The token alone confirms only for a browser signed in to the account;
 * otherwise the link's holder proves the account is theirs with its password, or sets a new one
 * (which ends the access of whoever registered the address with the old one) — never both.
 */
export const verifyEmailSchema = object({
  token: linkToken(EMAIL_MESSAGES.verifyLinkInvalid),
  password: string().optional().max(1024, M.passwordTooLong),
  newPassword: string()
    .optional()
    .min(PASSWORD_MIN_LENGTH, M.newPasswordMin)
    .max(PASSWORD_MAX_LENGTH, M.passwordTooLong)
    .test('one-proof', EMAIL_MESSAGES.verifyOneProof, function (value) {
      return value === undefined || (this.parent as { password?: unknown }).password === undefined;
    }),
  confirmPassword: optionalConfirmation('newPassword'),
});
export type VerifyEmailRequest = InferType<typeof verifyEmailSchema>;
/** The confirmation page's two forms: the account's password, or a new one typed twice. */
export const verifyEmailSignInFormSchema = object({ password: string().required(M.passwordRequired).max(1024, M.passwordTooLong) });
export const verifyEmailNewPasswordFormSchema = object({
  newPassword: newPassword(M.newPasswordMin, M.newPasswordMin),
  confirmPassword: requiredConfirmation('newPassword'),
});

/** PATCH /account/preferences */
export const accountPreferencesSchema = object({
  notifyConversions: boolean().strict().required(),
});
export type AccountPreferencesRequest = InferType<typeof accountPreferencesSchema>;
