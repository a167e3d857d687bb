/**
 * Plan analytics of the admin screen. Periods are calendar periods in
 * America/Sao_Paulo (this week from Monday, this month, quarter, year), counted on the
 * approval time of approved purchases. Revenue sums BRL (USD and EUR sales are counted, not added
 * to it); sales are also counted per payment method.
 */
import { QueryTypes } from 'sequelize';
import {
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  PAYMENT_STATUS_LABELS,
  PLAN_LIMITS,
  fromCents,
  type AnalyticsPeriod,
  type PlanAnalytics,
  type PlanPerformanceEntry,
  type PlanType,
  type PurchaseStatus,
} from '@aabify/shared';
import type { AppContext } from '../context.js';

type Ctx = Pick<AppContext, 'sequelize'>;

export const ANALYTICS_TIME_ZONE = 'America/Sao_Paulo';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** Start of the calendar period containing `now`, in São Paulo time. */
export async function periodStart(ctx: Ctx, period: AnalyticsPeriod, now: Date): Promise<Date> {
  const [row] = await ctx.sequelize.query<{ start: Date }>(
    `SELECT date_trunc(:period, CAST(:now AS timestamptz) AT TIME ZONE :tz) AT TIME ZONE :tz AS start`,
    { replacements: { period, now: now.toISOString(), tz: ANALYTICS_TIME_ZONE }, type: QueryTypes.SELECT },
  );
  return new Date(row.start);
}

export async function planAnalytics(ctx: Ctx, period: AnalyticsPeriod, now: Date = new Date()): Promise<PlanAnalytics> {
  const start = await periodStart(ctx, period, now);
  const q = <T extends object>(sql: string) =>
    ctx.sequelize.query<T>(sql, { replacements: { start: start.toISOString(), now: now.toISOString() }, type: QueryTypes.SELECT });

  const [plans] = await q<{ total: string; active: string; credit: string; subscription: string }>(`
    SELECT count(*) AS total, count(*) FILTER (WHERE "isActive") AS active,
           count(*) FILTER (WHERE type = 'credit') AS credit, count(*) FILTER (WHERE type = 'subscription') AS subscription
    FROM plans`);
  const [revenue] = await q<{ total: string | null; period: string | null; periodCount: string }>(`
    SELECT sum("amountCents") AS total,
           sum("amountCents") FILTER (WHERE "approvedAt" >= :start AND "approvedAt" <= :now) AS period,
           count(*) FILTER (WHERE "approvedAt" >= :start AND "approvedAt" <= :now) AS "periodCount"
    FROM purchases WHERE status = 'approved' AND currency = 'BRL'`);
  const byMethod = await q<{ method: string | null; sales: string; revenue: string | null }>(`
    SELECT method, count(*) AS sales, sum("amountCents") FILTER (WHERE currency = 'BRL') AS revenue
    FROM purchases
    WHERE status = 'approved' AND method IS NOT NULL AND "approvedAt" >= :start AND "approvedAt" <= :now
    GROUP BY method`);
  const top = await q<{ id: string | null; name: string; type: PlanType; revenue: string; sales: string }>(`
    SELECT p."planId" AS id, coalesce(pl.name, max(p."planSnapshot"->>'name')) AS name,
           coalesce(pl.type, max(p."planSnapshot"->>'type')) AS type,
           sum(p."amountCents") AS revenue, count(*) AS sales
    FROM purchases p LEFT JOIN plans pl ON pl.id = p."planId"
    WHERE p.status = 'approved' AND p.currency = 'BRL' AND p."approvedAt" >= :start AND p."approvedAt" <= :now
    GROUP BY p."planId", pl.name, pl.type
    ORDER BY revenue DESC, sales DESC, name ASC
    LIMIT ${PLAN_LIMITS.topPlans}`);
  const recent = await q<{ id: string; planId: string | null; planName: string | null; userId: string; email: string | null; amountCents: number; status: PurchaseStatus; createdAt: Date }>(`
    SELECT p.id, p."planId", coalesce(pl.name, p."planSnapshot"->>'name') AS "planName", p."userId", u.email,
           p."amountCents", p.status, p."createdAt"
    FROM purchases p LEFT JOIN plans pl ON pl.id = p."planId" LEFT JOIN users u ON u.id = p."userId"
    WHERE p."createdAt" >= :start AND p."createdAt" <= :now
    ORDER BY p."createdAt" DESC, p.id
    LIMIT ${PLAN_LIMITS.recentSales}`);

  const periodCents = num(revenue.period);
  const periodCount = num(revenue.periodCount);
  const averageCents = periodCount ? Math.round(periodCents / periodCount) : 0;
  return {
    period,
    periodStart: start.toISOString(),
    currency: 'BRL',
    summary: {
      totalPlans: num(plans.total),
      activePlans: num(plans.active),
      totalRevenue: fromCents(num(revenue.total)),
      totalRevenueCents: num(revenue.total),
      periodRevenue: { total: fromCents(periodCents), totalCents: periodCents, count: periodCount },
      averageTicket: fromCents(averageCents),
      averageTicketCents: averageCents,
    },
    plansByType: { subscription: num(plans.subscription), credit: num(plans.credit) },
    salesByMethod: PAYMENT_METHODS.map((method) => {
      const row = byMethod.find((r) => r.method === method);
      return { method, label: PAYMENT_METHOD_LABELS[method], sales: num(row?.sales), revenueCents: num(row?.revenue) };
    }),
    topPerformingPlans: top.map((t) => ({
      plan: { id: t.id ?? '', _id: t.id ?? '', name: t.name || PAYMENT_MESSAGES.unknownPlan, type: t.type },
      revenue: fromCents(num(t.revenue)),
      revenueCents: num(t.revenue),
      sales: num(t.sales),
    })),
    recentSales: recent.map((r) => ({
      _id: r.id,
      id: r.id,
      planId: { _id: r.planId ?? '', name: r.planName || PAYMENT_MESSAGES.unknownPlan },
      userId: { _id: r.userId, email: r.email ?? '' },
      amount: fromCents(r.amountCents),
      amountCents: r.amountCents,
      status: r.status,
      statusLabel: PAYMENT_STATUS_LABELS[r.status],
      createdAt: new Date(r.createdAt).toISOString(),
    })),
  };
}

/** Sales of each plan, all time and in the period, for the comparison view. */
export async function planPerformance(ctx: Ctx, planIds: string[] | undefined, period: AnalyticsPeriod, now: Date = new Date()): Promise<PlanPerformanceEntry[]> {
  const start = await periodStart(ctx, period, now);
  const filter = planIds && planIds.length ? 'WHERE pl.id IN (:planIds)' : '';
  const rows = await ctx.sequelize.query<{
    id: string; name: string; type: PlanType; priceCents: number; isActive: boolean;
    sales: string; revenue: string | null; periodSales: string; periodRevenue: string | null; pending: string;
  }>(
    `SELECT pl.id, pl.name, pl.type, pl."priceCents", pl."isActive",
            count(p.id) FILTER (WHERE p.status = 'approved') AS sales,
            sum(p."amountCents") FILTER (WHERE p.status = 'approved') AS revenue,
            count(p.id) FILTER (WHERE p.status = 'approved' AND p."approvedAt" >= :start AND p."approvedAt" <= :now) AS "periodSales",
            sum(p."amountCents") FILTER (WHERE p.status = 'approved' AND p."approvedAt" >= :start AND p."approvedAt" <= :now) AS "periodRevenue",
            count(p.id) FILTER (WHERE p.status = 'pending') AS pending
     FROM plans pl LEFT JOIN purchases p ON p."planId" = pl.id
     ${filter}
     GROUP BY pl.id
     ORDER BY revenue DESC NULLS LAST, pl."displayOrder", pl.name`,
    { replacements: { start: start.toISOString(), now: now.toISOString(), planIds: planIds ?? [] }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => {
    const sales = num(r.sales);
    const revenue = num(r.revenue);
    return {
      planId: r.id,
      name: r.name,
      type: r.type,
      price: fromCents(r.priceCents),
      isActive: r.isActive,
      sales,
      revenue: fromCents(revenue),
      revenueCents: revenue,
      periodSales: num(r.periodSales),
      periodRevenue: fromCents(num(r.periodRevenue)),
      periodRevenueCents: num(r.periodRevenue),
      pendingPurchases: num(r.pending),
      averageTicket: sales ? fromCents(Math.round(revenue / sales)) : 0,
    };
  });
}

/** GET /plans/{id}/stats: one plan's purchases by status and its current holders. */
export async function planStats(ctx: Ctx, planId: string) {
  const [row] = await ctx.sequelize.query<Record<string, string | Date | null>>(
    `SELECT count(*) FILTER (WHERE status = 'approved') AS approved,
            count(*) FILTER (WHERE status = 'pending') AS pending,
            count(*) FILTER (WHERE status = 'rejected') AS rejected,
            count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
            count(*) FILTER (WHERE status = 'refunded') AS refunded,
            sum("amountCents") FILTER (WHERE status = 'approved') AS revenue,
            max("approvedAt") AS "lastSaleAt",
            (SELECT count(*) FROM users u WHERE u."currentPlanId" = :planId AND u."deletedAt" IS NULL) AS holders
     FROM purchases WHERE "planId" = :planId`,
    { replacements: { planId }, type: QueryTypes.SELECT },
  );
  const approved = num(row.approved);
  const revenue = num(row.revenue);
  return {
    planId,
    salesCount: approved,
    totalRevenue: fromCents(revenue),
    totalRevenueCents: revenue,
    averageTicket: approved ? fromCents(Math.round(revenue / approved)) : 0,
    purchasesByStatus: {
      pending: num(row.pending),
      approved,
      rejected: num(row.rejected),
      cancelled: num(row.cancelled),
      refunded: num(row.refunded),
    },
    currentHolders: num(row.holders),
    lastSaleAt: row.lastSaleAt ? new Date(row.lastSaleAt).toISOString() : null,
  };
}
