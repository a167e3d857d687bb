/**
 * Administration as the API's clients see it (spec plans-payments-admin §2.4–2.11, §5, §7):
 * limits, pt-BR messages, the request schemas of /api/admin/* (the same yup schemas validate
 * the server's requests and the dashboard's forms), the JSON of the answers, and small pure
 * helpers the admin screens use (uptime text, windowed pagination, settings drafts).
 * No Node-only code: the dashboard imports this too.
 */
import { countOf, formatNumber } from './numbers.js';
import { date, mixed, number, object, ref, string, type InferType } from 'yup';
import { ACCOUNT_MESSAGES } from './messages.js';
import { pageNumber } from './paging.js';
import { normalizeEmail, EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_TYPES, type ApiUser, type UserRole, type UserType } from './accounts.js';
import { CONVERSION_LIMITS, CONVERSION_STATUSES, type ApiConversion } from './conversions.js';
import type { Pagination } from './plans.js';
import type { PaymentsStatus } from './payments.js';

export const ADMIN_LIMITS = {
  /** Admin users list (spec §2.5, §9). */
  usersPageSize: 10,
  maxPageSize: 100,
  conversionPageSizes: [10, 25, 50, 100] as const,
  conversionDefaultPageSize: 25,
  /** Above this many pages the page list is windowed (spec §9). */
  windowedPagesAbove: 7,
  dashboardRefreshMs: 30_000,
  recentConversions: 5,
  searchDebounceMs: 400,
  searchMaxLength: 200,
  /** The subscription plan picker of the user forms loads this many plans. */
  planPickerLimit: 100,
  defaultInitialCredits: 10,
  creditsMax: 1_000_000,
  subscriptionMonthsMax: 120,
  /** Charts of the admin dashboard. */
  chartDays: 30,
  chartMonths: 12,
} as const;

export const ADMIN_MESSAGES = {
  settingUnreadable: 'O valor salvo não pôde ser lido (foi salvo com outra chave de criptografia). Cadastre-o de novo.',
  // validation (§5)
  createUserRequired: 'Email e senha são obrigatórios',
  createAdminRequired: 'Por favor, preencha todos os campos',
  noChanges: 'Nenhuma alteração detectada',
  creditsMin: 'Créditos devem ser no mínimo 0',
  creditsInteger: 'Créditos devem ser um número inteiro',
  creditsTooMany: 'Créditos devem ser no máximo 1.000.000',
  userTypeInvalid: 'Tipo de usuário inválido (use credit ou subscription)',
  roleInvalid: 'Papel inválido (use user ou admin)',
  operationInvalid: 'Operação inválida (use set, add ou subtract)',
  expiresAtInvalid: 'Data de expiração inválida',
  monthsInvalid: 'Meses devem ser um número inteiro entre 1 e 120',
  planIdInvalid: 'Identificador de plano inválido',
  subscriptionNeedsPlan: 'Selecione um plano de assinatura para o usuário',
  planNotSubscription: 'O plano escolhido não é um plano de assinatura',
  creditsBelowZero: 'O saldo de créditos não pode ficar negativo',
  settingEmpty: 'Valor não pode ser vazio',
  settingNotNumber: 'Valor deve ser um número válido',
  settingFileSizeRange: 'Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite',
  settingLevel: 'Use debug, info, warn ou error',
  // rules of DECISIONS.md "Accounts"
  userNotFound: 'Usuário não encontrado',
  cannotDemoteSelf: 'Você não pode rebaixar a si mesmo',
  cannotDeleteSelf: 'Você não pode excluir a sua própria conta',
  cannotDeactivateSelf: 'Você não pode desativar a sua própria conta',
  alreadyAdmin: 'O usuário já é administrador',
  notAdmin: 'O usuário não é administrador',
  adminUseManagement: 'Administradores são gerenciados na tela Gerenciar Admins',
  // success
  userCreated: 'Usuário criado com sucesso!',
  adminCreated: 'Administrador criado com sucesso!',
  userUpdated: 'Usuário atualizado com sucesso!',
  userDeleted: 'Usuário excluído com sucesso!',
  userActivated: 'Usuário ativado com sucesso!',
  userDeactivated: 'Usuário desativado com sucesso!',
  promoted: 'Usuário promovido a administrador!',
  demoted: 'Administrador rebaixado a usuário!',
  passwordChanged: 'Senha alterada com sucesso!',
  creditsUpdated: 'Créditos atualizados com sucesso!',
  subscriptionUpdated: 'Assinatura atualizada com sucesso!',
  typeUpdated: 'Tipo de usuário atualizado com sucesso!',
  conversionDeleted: 'Conversão excluída com sucesso!',
  conversionNotFound: 'Conversão não encontrada',
  queueCleared: (n: number) => (n === 1 ? '1 conversão removida da fila' : `${n} conversões removidas da fila`),
  configUpdated: 'Configuração atualizada com sucesso!',
  configUnknown: 'Configuração desconhecida',
  /** The webhook secret's hint: the whole URL with PUBLIC_URL set, else the path on this server. */
  webhookHint: (url: string) =>
    url.startsWith('/')
      ? `URL do webhook para cadastrar no Mercado Pago: o endereço público deste servidor seguido de ${url} (com PUBLIC_URL definida, a URL completa aparece aqui).`
      : `URL do webhook para cadastrar no Mercado Pago: ${url}`,
  // failures the screens show (§8)
  createAdminFailed: 'Erro ao criar admin',
  promoteFailed: 'Erro ao promover usuário',
  demoteFailed: 'Erro ao rebaixar admin',
  updateFailed: 'Erro ao atualizar usuário',
  createFailed: 'Erro ao criar usuário',
  deleteFailed: 'Erro ao deletar usuário',
  toggleFailed: 'Erro ao alterar status do usuário',
  passwordFailed: 'Erro ao alterar senha',
  configSaveFailed: 'Erro ao atualizar configuração',
  configLoadFailed: 'Erro ao carregar configurações',
  bulkUploadFailed: 'Erro ao fazer upload em massa',
  downloadFailed: 'Erro ao fazer download',
  logsDownloaded: 'Logs baixados',
  logsDownloadFailed: 'Erro ao baixar logs',
  noLogs: 'Sem logs disponíveis',
  noFilesSelected: 'Nenhum arquivo selecionado',
  dropTooMany: (max: number, n: number) => `Máximo de ${max} arquivos permitido. Você está tentando adicionar ${n} arquivos.`,
} as const;

// ---- request schemas -------------------------------------------------------------------

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
const planId = () => string().transform(emptyToUndefined).uuid(ADMIN_MESSAGES.planIdInvalid);
const expiresAt = () => date().transform(emptyToUndefined).typeError(ADMIN_MESSAGES.expiresAtInvalid);

/** GET /admin/users (page, limit, search, role, userType). */
/** The paging and search fields of admin lists, for list schemas defined beside their feature (email.ts). */
export const adminListQueryFields = { page, limit, search, emptyToUndefined };

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

/** PATCH /admin/users/{id}/change-password: no current password needed (spec §2.5). */
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
  userId: string().transform(emptyToUndefined).uuid('Usuário inválido').optional(),
});
export type AdminConversionsQuery = InferType<typeof adminConversionsQuerySchema>;

/** PUT /admin/config/{key} { value }: the key's own rules are checked by the settings service. */
export const adminConfigUpdateSchema = object({
  value: mixed<string | number | boolean>()
    .nullable()
    .test('present', ADMIN_MESSAGES.settingEmpty, (v) => v !== undefined && v !== null && String(v).trim() !== '')
    .test('scalar', ADMIN_MESSAGES.settingEmpty, (v) => v === undefined || v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'),
});

// ---- JSON the client sees --------------------------------------------------------------

export interface AdminQueueStats {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Uploaded, not started. */
  pending: number;
  maxConcurrent: number;
  averageProcessingTime: number;
}

export interface AdminSystemStats {
  /** Seconds since this server process started. */
  uptime: number;
  startedAt: string;
  memory: {
    /** Bytes of the machine in use and in total. */
    used: number;
    total: number;
    process: { rss: number; heapUsed: number; heapTotal: number };
  };
  cpu: {
    /** Machine load of the last minute over the cores, in percent (0–100). */
    usage: number;
    cores: number;
    loadAverage: number[];
    model: string;
  };
  nodeVersion: string;
  platform: string;
  version: string;
  role: string;
}

export interface AdminDashboardStats {
  /** Every live account (admins included); `customers*` count role user only, as the users list does. */
  users: { total: number; active: number; inactive: number; admins: number; newThisMonth: number; customers: number; customersActive: number; customersInactive: number };
  conversions: { total: number; completed: number; failed: number; pending: number; processing: number; cancelled: number; monthly: number };
  /** Approved purchases in BRL, in reais (cents beside). */
  revenue: { total: number; monthly: number; totalCents: number; monthlyCents: number; currency: 'BRL' };
  purchases: { total: number; approved: number; pending: number; rejected: number; refunded: number };
  queue: AdminQueueStats;
  system: AdminSystemStats;
  recentConversions: AdminConversion[];
  charts: {
    /** The last 30 days, oldest first, São Paulo calendar days ('2025-01-31'). */
    conversionsPerDay: Array<{ date: string; total: number; completed: number; failed: number }>;
    /** The last 12 months, oldest first ('2025-01'). */
    revenuePerMonth: Array<{ month: string; revenue: number; revenueCents: number; purchases: number }>;
  };
  // The flat names of spec users-and-conversion §3 "Admin dashboard stats".
  totalUsers: number;
  activeUsers: number;
  totalConversions: number;
  completedConversions: number;
  failedConversions: number;
  pendingConversions: number;
  totalRevenue: number;
  monthlyRevenue: number;
  generatedAt: string;
}

export interface AdminUserListResponse {
  users: ApiUser[];
  pagination: Pagination;
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export interface AdminUserResponse {
  message: string;
  user: ApiUser;
}

export interface AdminConversion extends ApiConversion {
  /** The owner (null when the account was removed for good). */
  user: { id: string; _id: string; email: string } | null;
}

export interface AdminConversionListResponse {
  conversions: AdminConversion[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  pagination: Pagination;
}

export interface AdminQueueClearResponse {
  message: string;
  cancelledCount: number;
  /** Credits given back to their owners. */
  creditsReturned: number;
  queue: AdminQueueStats;
}

export interface AdminConfigEntry {
  key: string;
  /** Masked for secrets; null when not set. */
  value: number | string | boolean | null;
  /** The name an admin reads ('Tamanho máximo do APK enviado'); the key is shown small beside it. */
  title: string;
  /** Topic of the settings screen ('Conversões', 'Uploads', 'Pagamentos', 'Segurança', 'Sistema'). */
  group: string;
  description: string;
  help: string | null;
  recommended: string | null;
  kind: 'number' | 'string' | 'enum' | 'boolean';
  isSecret: boolean;
  isSet: boolean;
  source: 'database' | 'default' | 'unset';
  updatedAt: string | null;
  /** Choices of an enum setting. */
  options?: string[];
  /** Extra guidance, e.g. the webhook URL to register at the payment provider. */
  hint?: string | null;
  /** A stored value that cannot be read (saved under another encryption key): what to do, pt-BR. */
  problem?: string | null;
}

export interface AdminConfigResponse {
  configs: AdminConfigEntry[];
  /** The URL to register at the payment provider for notifications. */
  webhookUrl: string;
  /** Which payment provider is active, and why payments are unavailable when they are. */
  payments: PaymentsStatus;
}

export interface AdminConfigUpdateResponse {
  message: string;
  config: AdminConfigEntry;
}

// ---- helpers for the screens -----------------------------------------------------------

/** 93784 → '1d 2h 3m' (spec §2.4: days, hours and minutes). */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d}d ${h}h ${m}m`;
}

/**
 * The page buttons of a list: every page up to 7 pages; above that the first, the last and a
 * window around the current page, with 'ellipsis' for the gaps (always 7 slots).
 */
export function pageWindow(current: number, totalPages: number, max: number = ADMIN_LIMITS.windowedPagesAbove): Array<number | 'ellipsis'> {
  if (totalPages <= max) return Array.from({ length: Math.max(0, totalPages) }, (_, i) => i + 1);
  const cur = Math.min(Math.max(1, current), totalPages);
  const inner = max - 4; // slots between "1 …" and "… N"
  if (cur <= max - 3) return [...Array.from({ length: max - 2 }, (_, i) => i + 1), 'ellipsis', totalPages];
  if (cur >= totalPages - (max - 4)) return [1, 'ellipsis', ...Array.from({ length: max - 2 }, (_, i) => totalPages - (max - 3) + i)];
  const start = cur - Math.floor((inner - 1) / 2);
  return [1, 'ellipsis', ...Array.from({ length: inner }, (_, i) => start + i), 'ellipsis', totalPages];
}

/**
 * First check of a settings draft in the browser (§5): not empty, a number where one is
 * expected, upload.maxFileSize within 1–500 MB or 0 (no limit), a known log level. The server checks again.
 */
export function validateSettingDraft(entry: { key: string; kind: AdminConfigEntry['kind']; options?: string[] }, draft: string): string | undefined {
  const text = draft.trim();
  if (text === '') return ADMIN_MESSAGES.settingEmpty;
  if (entry.kind === 'number') {
    const n = Number(text);
    if (!Number.isFinite(n)) return ADMIN_MESSAGES.settingNotNumber;
    if (entry.key === 'upload.maxFileSize' && n !== CONVERSION_LIMITS.unlimitedMaxFileSize && (n < CONVERSION_LIMITS.minMaxFileSize || n > CONVERSION_LIMITS.maxMaxFileSize)) {
      return ADMIN_MESSAGES.settingFileSizeRange;
    }
  }
  if (entry.kind === 'enum' && entry.options && !entry.options.includes(text.toLowerCase())) return ADMIN_MESSAGES.settingLevel;
  return undefined;
}

/** A setting's value as the settings screen shows it (sizes in MB, intervals in seconds). */
export function formatSettingValue(key: string, value: number | string | boolean | null): string {
  if (value === null || value === undefined) return 'Não configurado';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') {
    if (key === 'upload.maxFileSize') {
      if (value === CONVERSION_LIMITS.unlimitedMaxFileSize) return '0 (ilimitado)';
      return `${formatNumber(value / (1024 * 1024), { decimals: 2 })} MB (${formatNumber(value)} bytes)`;
    }
    if (key === 'upload.maxPendingBytes') {
      if (value === 0) return '0 (automático)';
      return `${formatNumber(value / (1024 * 1024), { decimals: 2 })} MB (${formatNumber(value)} bytes)`;
    }
    if (key === 'queue.broadcastInterval') return `${formatNumber(value / 1000, { decimals: 1 })} s (${formatNumber(value)} ms)`;
    if (key === 'conversions.concurrentPerUser' && value === 0) return '0 (ilimitado)';
    if (key === 'conversions.retentionDays') return countOf(value, 'dia', 'dias');
    if (key === 'conversions.maxDurationSeconds') return value % 60 === 0 ? `${countOf(value / 60, 'minuto', 'minutos')} (${formatNumber(value)} s)` : countOf(value, 'segundo', 'segundos');
    return formatNumber(value);
  }
  return value;
}
