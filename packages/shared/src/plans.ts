/**
 * Plans as the API's clients see them: the JSON of a plan, the request schemas (the same yup
 * schemas validate the server's requests and the dashboard's formik forms) and the
 * admin query and analytics shapes.
 */
import { array, boolean, mixed, number, object, string, type InferType } from 'yup';
import { CURRENCIES, DEFAULT_CURRENCY, hasAtMostTwoDecimals, type Currency } from './money.js';
import { PLAN_MESSAGES as M } from './plansMessages.js';
import { UUID_PATTERN } from './ids.js';
import { pageNumber, type Pagination } from './paging.js';
import type { PaymentMethod } from './paymentMethods.js';

export const PLAN_TYPES = ['credit', 'subscription'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const PLAN_TYPE_LABELS: Record<PlanType, string> = { credit: 'Créditos', subscription: 'Assinatura' };

export const PLAN_LIMITS = {
  nameMax: 100,
  descriptionMax: 1000,
  featuresMax: 30,
  featureMax: 200,
  /** Major units. */
  priceMax: 1_000_000,
  displayOrderMax: 1_000_000,
  creditsMax: 1_000_000,
  durationMaxMonths: 120,
  defaultDurationMonths: 1,
  pageSizes: [10, 20, 50, 100] as const,
  defaultPageSize: 20,
  maxPageSize: 100,
  bulkMax: 100,
  topPlans: 5,
  recentSales: 5,
  /** The admin screen serves a plan list younger than this without asking again. */
  listFreshMs: 30_000,
  /** The same for analytics. */
  analyticsFreshMs: 60_000,
} as const;

export const ANALYTICS_PERIODS = ['week', 'month', 'quarter', 'year'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const ANALYTICS_PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  week: 'Esta Semana',
  month: 'Este Mês',
  quarter: 'Este Trimestre',
  year: 'Este Ano',
};

export const PLAN_SORT_FIELDS = ['displayOrder', 'name', 'price', 'type', 'createdAt', 'updatedAt', 'salesCount', 'totalRevenue'] as const;
export type PlanSortField = (typeof PLAN_SORT_FIELDS)[number];

// ---- JSON the client sees --------------------------------------------------------------

export interface ApiPlan {
  id: string;
  /** Same as id (older clients read _id). */
  _id: string;
  name: string;
  description: string;
  type: PlanType;
  /** Major units with two decimals (19.9); priceCents is the exact value. */
  price: number;
  priceCents: number;
  currency: Currency;
  /** 'R$ 19,90' */
  formattedPrice: string;
  /** Credit plans only; null for subscriptions. */
  credits: number | null;
  /** Subscriptions only (always unlimited conversions); null for credit plans. */
  subscriptionDetails: { duration: number; unlimited: true } | null;
  features: string[];
  isPopular: boolean;
  displayOrder: number;
  isActive: boolean;
  salesCount: number;
  totalRevenue: number;
  totalRevenueCents: number;
  createdAt: string;
  updatedAt: string;
}

export interface PlanListResponse {
  plans: ApiPlan[];
  pagination: Pagination;
}

export interface PlanAnalytics {
  period: AnalyticsPeriod;
  /** Start of the period (America/Sao_Paulo calendar), ISO. */
  periodStart: string;
  currency: 'BRL';
  summary: {
    totalPlans: number;
    activePlans: number;
    totalRevenue: number;
    totalRevenueCents: number;
    periodRevenue: { total: number; totalCents: number; count: number };
    averageTicket: number;
    averageTicketCents: number;
  };
  plansByType: { subscription: number; credit: number };
  /** Approved sales of the period per payment method (every currency counted; revenue in BRL only, like the summary). */
  salesByMethod: Array<{ method: PaymentMethod; label: string; sales: number; revenueCents: number }>;
  topPerformingPlans: Array<{ plan: { id: string; _id: string; name: string; type: PlanType }; revenue: number; revenueCents: number; sales: number }>;
  recentSales: Array<{
    _id: string;
    id: string;
    planId: { _id: string; name: string };
    userId: { _id: string; email: string };
    amount: number;
    amountCents: number;
    status: 'approved' | 'pending' | 'rejected' | 'cancelled' | 'refunded';
    statusLabel: string;
    createdAt: string;
  }>;
}

export interface PlanPerformanceEntry {
  planId: string;
  name: string;
  type: PlanType;
  price: number;
  isActive: boolean;
  sales: number;
  revenue: number;
  revenueCents: number;
  periodSales: number;
  periodRevenue: number;
  periodRevenueCents: number;
  pendingPurchases: number;
  averageTicket: number;
}

// ---- request schemas -------------------------------------------------------------------

/** Feature lines: a list or newline-separated text; blank lines dropped. */
const features = () =>
  array(string().trim().max(PLAN_LIMITS.featureMax, M.featureTooLong).defined())
    .transform((value: unknown) => {
      const lines = typeof value === 'string' ? value.split('\n') : value;
      return Array.isArray(lines) ? lines.filter((line) => typeof line !== 'string' || line.trim() !== '') : lines;
    })
    .max(PLAN_LIMITS.featuresMax, M.featuresTooMany)
    .default([]);

const price = () =>
  number()
    .typeError(M.priceInvalid)
    .min(0, M.priceNegative)
    .max(PLAN_LIMITS.priceMax, M.priceTooHigh)
    .test('cents', M.priceDecimals, (v) => v === undefined || hasAtMostTwoDecimals(v));

const emptyToUndefined = <T>(v: T, original: unknown): T | undefined => (original === '' || original === null ? undefined : v);

function buildPlanSchema(form: boolean) {
  return object({
    name: string().trim().required(M.nameRequired).max(PLAN_LIMITS.nameMax, M.nameTooLong),
    description: string().trim().max(PLAN_LIMITS.descriptionMax, M.descriptionTooLong).default(''),
    type: mixed<PlanType>().oneOf(PLAN_TYPES, M.typeInvalid).required(M.typeInvalid),
    price: price().required(M.priceRequired),
    currency: mixed<Currency>().oneOf(CURRENCIES, M.currencyInvalid).default(DEFAULT_CURRENCY),
    // Sent only for credit plans; dropped from the other type.
    credits: number().when('type', {
      is: 'credit',
      then: (s) =>
        s
          .typeError(M.creditsRequired)
          .required(M.creditsRequired)
          .integer(M.creditsInteger)
          .moreThan(0, M.creditsRequired)
          .max(PLAN_LIMITS.creditsMax, M.creditsTooMany),
      otherwise: (s) => s.strip(),
    }),
    subscriptionDetails: object({
      duration: number()
        .typeError(M.durationRequired)
        .required(M.durationRequired)
        .integer(M.durationRequired)
        .moreThan(0, M.durationRequired)
        .max(PLAN_LIMITS.durationMaxMonths, M.durationTooLong)
        .default(PLAN_LIMITS.defaultDurationMonths),
    }).when('type', { is: 'subscription', then: (s) => s, otherwise: (s) => s.strip() }),
    features: features(),
    isPopular: boolean().default(false),
    // Absent on a new plan: it goes last in the display order, not to the top.
    displayOrder: form
      ? number().transform(emptyToUndefined).typeError(M.displayOrderMin).integer(M.displayOrderMin).min(1, M.displayOrderMin).max(PLAN_LIMITS.displayOrderMax, M.displayOrderTooHigh).optional()
      : number().typeError(M.displayOrderInvalid).integer(M.displayOrderInvalid).min(0, M.displayOrderInvalid).max(PLAN_LIMITS.displayOrderMax, M.displayOrderTooHigh).optional(),
    isActive: boolean().default(true),
  });
}

/** POST /admin/plans, PUT /admin/plans/{id} (an update is merged onto the plan, then checked whole). */
export const planInputSchema = buildPlanSchema(false);
export type PlanInput = InferType<typeof planInputSchema>;
/** The admin plan form: the same rules, with display order from 1. */
export const planFormSchema = buildPlanSchema(true);
export type PlanFormValues = InferType<typeof planFormSchema>;

const planIds = () =>
  array(string().matches(UUID_PATTERN, M.planIdInvalid).required(M.planIdInvalid))
    .required(M.planIdsRequired)
    .min(1, M.planIdsRequired)
    .max(PLAN_LIMITS.bulkMax, M.planIdsTooMany);

/** '' or null from a form or query string means "not given" (checked on the original value: number() turns '' into NaN first). */

const hasAny = (value: Record<string, unknown> | undefined, keys: readonly string[]) =>
  value !== undefined && keys.some((k) => value[k] !== undefined && value[k] !== null && value[k] !== '');

/** The bulk "custom update" form: price, currency or display order. */
export const planBulkCustomUpdateFormSchema = object({
  price: price().transform(emptyToUndefined).optional(),
  currency: mixed<Currency>().transform(emptyToUndefined).oneOf([...CURRENCIES, undefined], M.currencyInvalid).optional(),
  displayOrder: number().transform(emptyToUndefined).typeError(M.displayOrderMin).integer(M.displayOrderMin).min(1, M.displayOrderMin).max(PLAN_LIMITS.displayOrderMax, M.displayOrderTooHigh).optional(),
}).test('at-least-one', M.bulkUpdateEmpty, (v) => hasAny(v, ['price', 'currency', 'displayOrder']));

/** PATCH /admin/plans/bulk-update: the custom fields plus the bulk bar's flags. */
export const planBulkUpdateSchema = object({
  planIds: planIds(),
  updates: object({
    price: price().optional(),
    currency: mixed<Currency>().oneOf([...CURRENCIES, undefined], M.currencyInvalid).optional(),
    displayOrder: number().typeError(M.displayOrderInvalid).integer(M.displayOrderInvalid).min(0, M.displayOrderInvalid).max(PLAN_LIMITS.displayOrderMax, M.displayOrderTooHigh).optional(),
    isActive: boolean().optional(),
    isPopular: boolean().optional(),
  })
    .default(undefined)
    .required(M.bulkUpdateEmpty)
    .test('at-least-one', M.bulkUpdateEmpty, (v) => hasAny(v, ['price', 'currency', 'displayOrder', 'isActive', 'isPopular'])),
});
export type PlanBulkUpdateRequest = InferType<typeof planBulkUpdateSchema>;

/** DELETE /admin/plans/bulk-delete */
export const planBulkDeleteSchema = object({ planIds: planIds() });

/** PATCH /admin/plans/reorder: planOrders [{planId (or id), displayOrder}]. */
export const planReorderSchema = object({
  planOrders: array(
    object({
      planId: string().matches(UUID_PATTERN, M.planIdInvalid).required(M.planIdInvalid),
      displayOrder: number().typeError(M.displayOrderInvalid).integer(M.displayOrderInvalid).min(0, M.displayOrderInvalid).max(PLAN_LIMITS.displayOrderMax, M.displayOrderTooHigh).required(M.displayOrderInvalid),
    }).transform((v: unknown) => {
      if (v && typeof v === 'object' && !('planId' in v) && 'id' in v) return { ...v, planId: (v as { id: unknown }).id };
      return v;
    }),
  )
    .required(M.planOrdersRequired)
    .min(1, M.planOrdersRequired)
    .max(PLAN_LIMITS.bulkMax, M.planIdsTooMany),
});

/** PATCH /admin/plans/{id}/set-popular; without `popular` the flag is toggled. */
export const planSetPopularSchema = object({ popular: boolean().typeError(M.popularInvalid).optional() });

/** POST /admin/plans/{id}/duplicate {newName} and POST /plans/{id}/duplicate {name}. */
export const planDuplicateSchema = object({
  newName: string().trim().max(PLAN_LIMITS.nameMax, M.nameTooLong).optional(),
  name: string().trim().max(PLAN_LIMITS.nameMax, M.nameTooLong).optional(),
});

/** GET /admin/plans (and the admin reading of GET /plans): the filter query. */
export const planFilterQuerySchema = object({
  page: pageNumber(),
  limit: number()
    .transform(emptyToUndefined)
    .typeError('Limite inválido')
    .integer('Limite inválido')
    .min(1, 'Limite inválido')
    .max(PLAN_LIMITS.maxPageSize, `Limite máximo de ${PLAN_LIMITS.maxPageSize} itens por página`)
    .default(PLAN_LIMITS.defaultPageSize),
  search: string().trim().max(100, 'Busca deve ter no máximo 100 caracteres').optional(),
  type: mixed<PlanType | 'all'>().transform(emptyToUndefined).oneOf([...PLAN_TYPES, 'all', undefined], M.typeInvalid).optional(),
  status: mixed<'all' | 'active' | 'inactive'>().transform(emptyToUndefined).oneOf(['all', 'active', 'inactive', undefined], 'Status inválido').optional(),
  isActive: boolean().transform(emptyToUndefined).typeError('isActive deve ser true ou false').optional(),
  isPopular: boolean().transform(emptyToUndefined).typeError('isPopular deve ser true ou false').optional(),
  minPrice: number().transform(emptyToUndefined).typeError('Preço mínimo inválido').min(0, M.priceNegative).max(PLAN_LIMITS.priceMax, M.priceTooHigh).optional(),
  maxPrice: number().transform(emptyToUndefined).typeError('Preço máximo inválido').min(0, M.priceNegative).max(PLAN_LIMITS.priceMax, M.priceTooHigh).optional(),
  sortBy: mixed<PlanSortField>().transform(emptyToUndefined).oneOf([...PLAN_SORT_FIELDS, undefined], 'Campo de ordenação inválido').default('displayOrder'),
  sortOrder: mixed<'asc' | 'desc'>()
    .transform((v: unknown) => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined))
    .oneOf(['asc', 'desc', undefined], 'Direção de ordenação inválida')
    .default('asc'),
});
export type PlanFilterQuery = InferType<typeof planFilterQuerySchema>;

/** GET /admin/plans/analytics?period */
export const planAnalyticsQuerySchema = object({
  period: mixed<AnalyticsPeriod>().transform(emptyToUndefined).oneOf([...ANALYTICS_PERIODS, undefined], M.periodInvalid).default('month'),
});

/** GET /admin/plans/performance?planIds=a,b&period */
export const planPerformanceQuerySchema = object({
  planIds: array(string().matches(UUID_PATTERN, M.planIdInvalid).required(M.planIdInvalid))
    .transform((v: unknown) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v))
    .max(PLAN_LIMITS.bulkMax, M.planIdsTooMany)
    .optional(),
  period: mixed<AnalyticsPeriod>().transform(emptyToUndefined).oneOf([...ANALYTICS_PERIODS, undefined], M.periodInvalid).default('month'),
});

/** GET /plans/usage-history, GET /payments/purchases */
export const pageQuerySchema = object({
  page: pageNumber(),
  limit: number()
    .transform(emptyToUndefined)
    .typeError('Limite inválido')
    .integer('Limite inválido')
    .min(1, 'Limite inválido')
    .max(100, 'Limite máximo de 100 itens por página')
    .default(10),
});
