/**
 * The request schemas of accounts (accounts.ts): the same yup schemas validate the server's
 * requests and the dashboard's formik forms. Kept apart from the limits and types, which the CLI
 * imports at start without building schemas (index.ts).
 */
import { array, boolean, object, ref, string, type InferType } from 'yup';
import { API_TOKEN_DEFAULT_SCOPES, API_TOKEN_SCOPES, TOTP_DIGITS, type ApiTokenScope } from './accountSecurity.js';
import { SECURITY_MESSAGES as S } from './securityMessages.js';
import { API_TOKEN_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, normalizeEmail } from './accounts.js';
import { ACCOUNT_MESSAGES as M } from './messages.js';
import { EMAIL_MESSAGES } from './emailMessages.js';
import { HIDDEN_CHARACTERS } from './hiddenCharacters.js';
import { LEGAL_MESSAGES } from './legal.js';

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

/**
 * POST /auth/register (the name is optional: the greeting and the top bar use it). `acceptTerms`
 * must be true: the Termos de Uso and the Política de Privacidade are accepted at sign-up.
 */
export const registerSchema = object({
  name: personName().optional(),
  email: email(),
  password: newPassword(M.passwordMin, M.passwordRequired),
  confirmPassword: optionalConfirmation('password'),
  acceptTerms: boolean().required(LEGAL_MESSAGES.acceptRequired).oneOf([true], LEGAL_MESSAGES.acceptRequired),
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

/** POST /auth/tokens (without `scopes`: API_TOKEN_DEFAULT_SCOPES). */
export const createApiTokenSchema = object({
  name: string().transform(trimmed).required(M.apiTokenNameRequired).max(API_TOKEN_NAME_MAX_LENGTH, M.apiTokenNameTooLong),
  scopes: array(string<ApiTokenScope>().defined().strict().oneOf(API_TOKEN_SCOPES, S.scopeInvalid))
    .typeError(S.scopeInvalid)
    .min(1, S.scopesRequired)
    .max(API_TOKEN_SCOPES.length, S.scopeInvalid)
    .transform((v: unknown) => (Array.isArray(v) ? [...new Set(v)] : v))
    .default(() => [...API_TOKEN_DEFAULT_SCOPES]),
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

/** GET /auth/reset-password/:token/status: whether a reset link still works, asked when its page opens. */
export const resetLinkStatusSchema = object({ token: linkToken(EMAIL_MESSAGES.resetLinkInvalid) });

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

/**
 * PATCH /account/preferences: the optional e-mails the customer wants (each switch sent alone or
 * together; security e-mails have no switch: they always go).
 */
export const accountPreferencesSchema = object({
  notifyConversions: boolean().strict().optional(),
  notifyConversionFailures: boolean().strict().optional(),
  notifyProductNews: boolean().strict().optional(),
}).test('some-preference', EMAIL_MESSAGES.preferencesEmpty, (v) => Object.values(v ?? {}).some((x) => x !== undefined));

/** PATCH /account/profile: the name (blank or absent: no name). */
export const profileSchema = object({ name: personName().nullable().optional() });
export type ProfileRequest = InferType<typeof profileSchema>;

/** POST /account/email-change: the address the account should use; a link to it confirms. */
export const emailChangeSchema = object({ newEmail: email() });
export type EmailChangeRequest = InferType<typeof emailChangeSchema>;

/** POST /account/email-change/confirm: the token of the link sent to the new address. */
export const emailChangeConfirmSchema = object({ token: linkToken(EMAIL_MESSAGES.emailChangeLinkInvalid) });
export type AccountPreferencesRequest = InferType<typeof accountPreferencesSchema>;

// ---- Two-factor sign-in and re-authentication (accountSecurity.ts) ----------------------

/**
 * A code typed at sign-in: the authenticator app's 6 digits, or a recovery code (16
 * characters, dashes and spaces allowed). The server tells which it is.
 */
const verificationCode = () =>
  string()
    .transform(trimmed)
    .required(S.twoFactorCodeRequired)
    .matches(/^[0-9A-Za-z][0-9A-Za-z -]{4,30}[0-9A-Za-z]$/, { message: S.twoFactorCodeFormat, excludeEmptyString: true });

/** Only the app's code (enrolment): a recovery code does not exist yet. */
const appCode = () =>
  string()
    .transform((v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v))
    .required(S.twoFactorCodeRequired)
    .matches(new RegExp(`^\\d{${TOTP_DIGITS}}$`), { message: S.twoFactorCodeFormat, excludeEmptyString: true });

/** POST /auth/login/2fa: the second step of a sign-in. */
export const loginTwoFactorSchema = object({
  challenge: string().required(S.twoFactorChallengeRequired).max(2048, S.twoFactorChallengeInvalid),
  code: verificationCode(),
});
export type LoginTwoFactorRequest = InferType<typeof loginTwoFactorSchema>;

/** POST /auth/reauth: the password, or a code of the app (or a recovery code). */
export const reauthSchema = object({
  password: string().optional().max(1024, M.passwordTooLong),
  code: verificationCode().optional().default(undefined),
}).test('one-proof', S.reauthProofRequired, (value) => Boolean(value.password) || Boolean(value.code));
export type ReauthRequest = InferType<typeof reauthSchema>;
/** The dashboard's "confirme sua senha" form, and its variant with a code. */
export const reauthPasswordFormSchema = object({ password: string().required(M.passwordRequired).max(1024, M.passwordTooLong) });
export const reauthCodeFormSchema = object({ code: verificationCode() });

/** POST /auth/2fa/enable: the first code of the app confirms the secret it scanned. */
export const twoFactorEnableSchema = object({ code: appCode() });
export type TwoFactorEnableRequest = InferType<typeof twoFactorEnableSchema>;

/** POST /auth/2fa/disable: the password and a code (of the app, or a recovery code). */
export const twoFactorDisableSchema = object({
  password: string().required(M.passwordRequired).max(1024, M.passwordTooLong),
  code: verificationCode(),
});
export type TwoFactorDisableRequest = InferType<typeof twoFactorDisableSchema>;
