/**
 * The request schemas of /api/admin/*: the same yup schemas validate the server's requests and
 * the dashboard's forms.
 */
import { date, mixed, number, object, ref, string, type InferType } from 'yup';
import { normalizeEmail, EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_TYPES, type UserRole, type UserType } from './accounts.js';
import { ADMIN_LIMITS } from './adminLimits.js';
import { ADMIN_MESSAGES } from './adminMessages.js';
import { CONVERSION_STATUSES } from './conversions.js';
import { UUID_PATTERN } from './ids.js';
import { ACCOUNT_MESSAGES } from './messages.js';
import { pageNumber } from './paging.js';

const emptyToUndefined = <T>(v: T, original: unknown): T | undefined => (original === '' || original === null ? undefined : v);
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

const page = () => pageNumber();
const limit = (def: number) =>
  number()
    .transform(emptyToUndefined)
    .typeError('Limite inválido')
    .integer('Limite inválido')
    .min(1, 'Limite inválido')
    .max(ADMIN_LIMITS.maxPageSize, `Limite máximo de ${ADMIN_LIMITS.maxPageSize} itens por página`)
    .default(def);
const search = () => string().transform(trimmed).max(ADMIN_LIMITS.searchMaxLength, 'Busca deve ter no máximo 200 caracteres').optional();

const email = (requiredMessage: string) =>
  string()
    .transform((v: unknown) => (typeof v === 'string' ? normalizeEmail(v) : v))
    .required(requiredMessage)
    .max(EMAIL_MAX_LENGTH, ACCOUNT_MESSAGES.emailTooLong)
    .email(ACCOUNT_MESSAGES.emailInvalid);
const password = (requiredMessage: string, minMessage: string = ACCOUNT_MESSAGES.passwordMin) =>
  string().required(requiredMessage).min(PASSWORD_MIN_LENGTH, minMessage).max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.passwordTooLong);
const credits = () =>
  number()
    .typeError(ADMIN_MESSAGES.creditsInteger)
    .integer(ADMIN_MESSAGES.creditsInteger)
    .min(0, ADMIN_MESSAGES.creditsMin)
    .max(ADMIN_LIMITS.creditsMax, ADMIN_MESSAGES.creditsTooMany);
const userType = () => mixed<UserType>().oneOf([...USER_TYPES], ADMIN_MESSAGES.userTypeInvalid);
const planId = () => string().transform(emptyToUndefined).matches(UUID_PATTERN, ADMIN_MESSAGES.planIdInvalid);
const expiresAt = () => date().transform(emptyToUndefined).typeError(ADMIN_MESSAGES.expiresAtInvalid);

/** The paging and search fields of admin lists, for list schemas defined beside their feature (email.ts). */
export const adminListQueryFields = { page, limit, search, emptyToUndefined };

/** GET /admin/users (page, limit, search, role, userType). */
export const adminUsersQuerySchema = object({
  page: page(),
  limit: limit(ADMIN_LIMITS.usersPageSize),
  search: search(),
  role: mixed<UserRole | 'all'>().transform(emptyToUndefined).oneOf(['user', 'admin', 'all', undefined], ADMIN_MESSAGES.roleInvalid).optional(),
  /** 'none': users who never had a plan. */
  userType: mixed<UserType | 'none' | 'all'>()
    .transform(emptyToUndefined)
    .oneOf([...USER_TYPES, 'none', 'all', undefined], ADMIN_MESSAGES.userTypeInvalid)
    .optional(),
});
export type AdminUsersQuery = InferType<typeof adminUsersQuerySchema>;

/** GET /admin/users/by-role/{role}, GET /admin/admins */
export const adminPageQuerySchema = object({ page: page(), limit: limit(ADMIN_LIMITS.usersPageSize), search: search() });

/** POST /admin/users/create-user: credit users get initial credits (default 10); subscription users may get a plan. */
export const adminCreateUserSchema = object({
  email: email(ADMIN_MESSAGES.createUserRequired),
  password: password(ADMIN_MESSAGES.createUserRequired),
  name: string().transform(trimmed).max(100, ACCOUNT_MESSAGES.nameTooLong).optional(),
  userType: userType().default('credit'),
  credits: credits().when('userType', {
    is: 'credit',
    then: (s) => s.default(ADMIN_LIMITS.defaultInitialCredits),
    otherwise: (s) => s.strip(),
  }),
  planId: planId().when('userType', { is: 'subscription', then: (s) => s.optional(), otherwise: (s) => s.strip() }),
});
export type AdminCreateUserRequest = InferType<typeof adminCreateUserSchema>;

/** POST /admin/users/create-admin */
export const adminCreateAdminSchema = object({
  email: email(ADMIN_MESSAGES.createAdminRequired),
  password: password(ADMIN_MESSAGES.createAdminRequired),
  name: string().transform(trimmed).max(100, ACCOUNT_MESSAGES.nameTooLong).optional(),
});
export type AdminCreateAdminRequest = InferType<typeof adminCreateAdminSchema>;
/** The admin-creation form: each field's own message, and the password rules of every other form. */
export const adminCreateAdminFormSchema = object({
  email: string().trim().required(ACCOUNT_MESSAGES.emailRequired).max(EMAIL_MAX_LENGTH, ACCOUNT_MESSAGES.emailTooLong).email(ACCOUNT_MESSAGES.emailInvalid),
  password: string().required(ACCOUNT_MESSAGES.passwordRequired).min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordMin).max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.passwordTooLong),
});

/**
 * PATCH /admin/users/{id}/update: only the changed fields are sent; a blank password keeps
 * the current one. planData carries the credit balance and the subscription expiry.
 */
export const adminUpdateUserSchema = object({
  email: string()
    .transform((v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? undefined : normalizeEmail(v)) : v))
    .max(EMAIL_MAX_LENGTH, ACCOUNT_MESSAGES.emailTooLong)
    .email(ACCOUNT_MESSAGES.emailInvalid)
    .optional(),
  password: string()
    .transform((v: unknown) => (v === '' || v === null ? undefined : v))
    .min(PASSWORD_MIN_LENGTH, ACCOUNT_MESSAGES.passwordMin)
    .max(PASSWORD_MAX_LENGTH, ACCOUNT_MESSAGES.passwordTooLong)
    .optional(),
  name: string().transform(trimmed).max(100, ACCOUNT_MESSAGES.nameTooLong).optional(),
  userType: userType().transform(emptyToUndefined).optional(),
  planId: planId().optional(),
  planData: object({
    credits: credits().transform(emptyToUndefined).optional(),
    expiresAt: expiresAt().optional(),
  })
    .default(undefined)
    .optional(),
});
export type AdminUpdateUserRequest = InferType<typeof adminUpdateUserSchema>;

/** PATCH /admin/users/{id}/credits: set the balance (default), or add / subtract an amount. */
export const adminCreditsSchema = object({
  credits: credits().required(ADMIN_MESSAGES.creditsInteger),
  operation: mixed<'set' | 'add' | 'subtract'>().transform(emptyToUndefined).oneOf(['set', 'add', 'subtract', undefined], ADMIN_MESSAGES.operationInvalid).default('set'),
});
export type AdminCreditsRequest = InferType<typeof adminCreditsSchema>;

/**
 * PATCH /admin/users/{id}/subscription: a plan and/or an expiry date (a date in the past ends
 * the subscription), or a number of months added to the later of now and the current expiry.
 */
export const adminSubscriptionSchema = object({
  planId: planId().optional(),
  expiresAt: expiresAt().optional(),
  extendMonths: number()
    .transform(emptyToUndefined)
    .typeError(ADMIN_MESSAGES.monthsInvalid)
    .integer(ADMIN_MESSAGES.monthsInvalid)
    .min(1, ADMIN_MESSAGES.monthsInvalid)
    .max(ADMIN_LIMITS.subscriptionMonthsMax, ADMIN_MESSAGES.monthsInvalid)
    .optional(),
}).test('something', ADMIN_MESSAGES.noChanges, (v) => v.planId !== undefined || v.expiresAt !== undefined || v.extendMonths !== undefined);
export type AdminSubscriptionRequest = InferType<typeof adminSubscriptionSchema>;

/** PATCH /admin/users/{id}/type (unspent credits are kept). */
export const adminUserTypeSchema = object({ userType: userType().required(ADMIN_MESSAGES.userTypeInvalid) });

/** PATCH /admin/users/{id}/change-password: no current password needed. */
export const adminChangePasswordSchema = object({
  newPassword: password(ACCOUNT_MESSAGES.newPasswordMin, ACCOUNT_MESSAGES.newPasswordMin),
  confirmPassword: string().optional().oneOf([ref('newPassword')], ACCOUNT_MESSAGES.passwordsDontMatch),
});
export const adminChangePasswordFormSchema = adminChangePasswordSchema.shape({
  confirmPassword: string().required(ACCOUNT_MESSAGES.passwordsDontMatch).oneOf([ref('newPassword')], ACCOUNT_MESSAGES.passwordsDontMatch),
});

/** GET /admin/conversions (page, limit, status, search over file name and owner's email). */
export const adminConversionsQuerySchema = object({
  page: page(),
  limit: limit(ADMIN_LIMITS.conversionDefaultPageSize),
  search: search(),
  status: string()
    .transform(emptyToUndefined)
    .optional()
    .test('status', 'Status inválido', (v) => v === undefined || v === 'all' || v.split(',').every((s) => (CONVERSION_STATUSES as readonly string[]).includes(s.trim()))),
  userId: string().transform(emptyToUndefined).matches(UUID_PATTERN, 'Usuário inválido').optional(),
});
export type AdminConversionsQuery = InferType<typeof adminConversionsQuerySchema>;

/** PUT /admin/config/{key} { value }: the key's own rules are checked by the settings service. */
export const adminConfigUpdateSchema = object({
  value: mixed<string | number | boolean>()
    .nullable()
    .test('present', ADMIN_MESSAGES.settingEmpty, (v) => v !== undefined && v !== null && String(v).trim() !== '')
    .test('scalar', ADMIN_MESSAGES.settingEmpty, (v) => v === undefined || v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'),
});
