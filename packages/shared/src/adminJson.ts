/** The JSON of /api/admin/* answers: dashboard statistics, users, conversions, the queue and settings. */
import type { ApiUser } from './accounts.js';
import type { ApiBillingDetails } from './billing.js';
import type { ApiConversion } from './conversionJson.js';
import type { Pagination } from './paging.js';
import type { PaymentsStatus } from './payments.js';

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
  // The same figures under the flat names older dashboards read.
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

/** GET /api/admin/users/{id}: the user, with the billing details they saved (Conta › Dados de faturamento). */
export interface AdminUserDetail extends ApiUser {
  billingDetails: ApiBillingDetails | null;
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
