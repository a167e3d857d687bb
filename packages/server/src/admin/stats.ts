/**
 * The figures of the admin dashboard, queue and system views (docs/admin.md). Counts come straight from the tables in a few aggregate queries; calendar periods
 * (this month, a day of the chart) are São Paulo's, like the plan analytics. Revenue sums
 * approved purchases in BRL (PIX sells in BRL only).
 */
import { cpus, freemem, loadavg, platform, totalmem } from 'node:os';
import { QueryTypes } from 'sequelize';
import { ADMIN_LIMITS, CONVERSION_LIMITS, fromCents, type AdminDashboardStats, type AdminQueueStats, type AdminSystemStats } from '@aabify/shared';
import type { AppContext } from '../context.js';

export const STATS_TIME_ZONE = 'America/Sao_Paulo';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

type Ctx = Pick<AppContext, 'sequelize' | 'settings' | 'conversionStats' | 'config' | 'version' | 'startedAt'>;

function select<T extends object>(ctx: Pick<AppContext, 'sequelize'>, sql: string, replacements: Record<string, unknown> = {}): Promise<T[]> {
  return ctx.sequelize.query<T>(sql, { replacements: { tz: STATS_TIME_ZONE, ...replacements }, type: QueryTypes.SELECT });
}

/** Waiting (queued), active (processing), and how conversions ended, over every user. */
export async function queueStats(ctx: Ctx): Promise<AdminQueueStats> {
  const [row] = await select<Record<string, string>>(
    ctx,
    `SELECT count(*) FILTER (WHERE status = 'queued') AS waiting,
            count(*) FILTER (WHERE status = 'processing') AS active,
            count(*) FILTER (WHERE status = 'completed') AS completed,
            count(*) FILTER (WHERE status = 'failed') AS failed,
            count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
            count(*) FILTER (WHERE status = 'pending') AS pending
     FROM conversions`,
  );
  const maxConcurrent = (await ctx.settings.get('conversions.maxConcurrent')) ?? CONVERSION_LIMITS.defaultMaxConcurrent;
  const averageProcessingTime = await ctx.conversionStats.averageProcessingTime();
  return {
    waiting: num(row?.waiting),
    active: num(row?.active),
    completed: num(row?.completed),
    failed: num(row?.failed),
    cancelled: num(row?.cancelled),
    pending: num(row?.pending),
    maxConcurrent,
    averageProcessingTime,
  };
}

/** This process and the machine it runs on. */
export function systemStats(ctx: Pick<AppContext, 'config' | 'version' | 'startedAt'>, now: Date = new Date()): AdminSystemStats {
  const total = totalmem();
  const mem = process.memoryUsage();
  const cores = Math.max(1, cpus().length);
  const load = loadavg();
  return {
    uptime: Math.max(0, Math.floor((now.getTime() - ctx.startedAt.getTime()) / 1000)),
    startedAt: ctx.startedAt.toISOString(),
    memory: { used: total - freemem(), total, process: { rss: mem.rss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal } },
    cpu: {
      usage: Math.min(100, Math.round(((load[0] ?? 0) / cores) * 1000) / 10),
      cores,
      loadAverage: load.map((l) => Math.round(l * 100) / 100),
      model: cpus()[0]?.model ?? 'desconhecido',
    },
    nodeVersion: process.version,
    platform: platform(),
    version: ctx.version,
    role: ctx.config.role,
  };
}

export type DashboardFigures = Omit<AdminDashboardStats, 'recentConversions'>;

export async function dashboardFigures(ctx: Ctx, now: Date = new Date()): Promise<DashboardFigures> {
  const at = { now: now.toISOString() };
  const monthStart = `date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz) AT TIME ZONE :tz`;
  const [users] = await select<Record<string, string>>(
    ctx,
    `SELECT count(*) AS total, count(*) FILTER (WHERE "isActive") AS active, count(*) FILTER (WHERE NOT "isActive") AS inactive,
            count(*) FILTER (WHERE role = 'admin') AS admins, count(*) FILTER (WHERE "createdAt" >= ${monthStart}) AS "newThisMonth",
            count(*) FILTER (WHERE role = 'user') AS customers, count(*) FILTER (WHERE role = 'user' AND "isActive") AS "customersActive"
     FROM users WHERE "deletedAt" IS NULL`,
    at,
  );
  const [conv] = await select<Record<string, string>>(
    ctx,
    `SELECT count(*) AS total, count(*) FILTER (WHERE status = 'completed') AS completed, count(*) FILTER (WHERE status = 'failed') AS failed,
            count(*) FILTER (WHERE status IN ('pending', 'queued')) AS pending, count(*) FILTER (WHERE status = 'processing') AS processing,
            count(*) FILTER (WHERE status = 'cancelled') AS cancelled, count(*) FILTER (WHERE "createdAt" >= ${monthStart}) AS monthly
     FROM conversions`,
    at,
  );
  const [money] = await select<Record<string, string | null>>(
    ctx,
    `SELECT count(*) AS total, count(*) FILTER (WHERE status = 'approved') AS approved, count(*) FILTER (WHERE status = 'pending') AS pending,
            count(*) FILTER (WHERE status = 'rejected') AS rejected, count(*) FILTER (WHERE status = 'refunded') AS refunded,
            sum("amountCents") FILTER (WHERE status = 'approved' AND currency = 'BRL') AS "revenueCents",
            sum("amountCents") FILTER (WHERE status = 'approved' AND currency = 'BRL' AND "approvedAt" >= ${monthStart}) AS "monthlyCents"
     FROM purchases`,
    at,
  );
  const days = await select<{ date: string; total: string; completed: string; failed: string }>(
    ctx,
    `SELECT to_char(d, 'YYYY-MM-DD') AS date, count(c.id) AS total,
            count(c.id) FILTER (WHERE c.status = 'completed') AS completed, count(c.id) FILTER (WHERE c.status = 'failed') AS failed
     FROM generate_series(date_trunc('day', CAST(:now AS timestamptz) AT TIME ZONE :tz) - (:days - 1) * interval '1 day',
                          date_trunc('day', CAST(:now AS timestamptz) AT TIME ZONE :tz), interval '1 day') AS d
     LEFT JOIN conversions c ON date_trunc('day', c."createdAt" AT TIME ZONE :tz) = d
     GROUP BY d ORDER BY d`,
    { ...at, days: ADMIN_LIMITS.chartDays },
  );
  const months = await select<{ month: string; cents: string | null; purchases: string }>(
    ctx,
    `SELECT to_char(m, 'YYYY-MM') AS month, sum(p."amountCents") AS cents, count(p.id) AS purchases
     FROM generate_series(date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz) - (:months - 1) * interval '1 month',
                          date_trunc('month', CAST(:now AS timestamptz) AT TIME ZONE :tz), interval '1 month') AS m
     LEFT JOIN purchases p ON p.status = 'approved' AND p.currency = 'BRL' AND date_trunc('month', p."approvedAt" AT TIME ZONE :tz) = m
     GROUP BY m ORDER BY m`,
    { ...at, months: ADMIN_LIMITS.chartMonths },
  );

  const revenueCents = num(money?.revenueCents);
  const monthlyCents = num(money?.monthlyCents);
  const figures: DashboardFigures = {
    users: {
      total: num(users?.total),
      active: num(users?.active),
      inactive: num(users?.inactive),
      admins: num(users?.admins),
      newThisMonth: num(users?.newThisMonth),
      // What Gerenciar Usuários lists (role user): the dashboard's customer figures match it.
      customers: num(users?.customers),
      customersActive: num(users?.customersActive),
      customersInactive: num(users?.customers) - num(users?.customersActive),
    },
    conversions: {
      total: num(conv?.total),
      completed: num(conv?.completed),
      failed: num(conv?.failed),
      pending: num(conv?.pending),
      processing: num(conv?.processing),
      cancelled: num(conv?.cancelled),
      monthly: num(conv?.monthly),
    },
    revenue: { total: fromCents(revenueCents), monthly: fromCents(monthlyCents), totalCents: revenueCents, monthlyCents, currency: 'BRL' },
    purchases: { total: num(money?.total), approved: num(money?.approved), pending: num(money?.pending), rejected: num(money?.rejected), refunded: num(money?.refunded) },
    queue: await queueStats(ctx),
    system: systemStats(ctx, now),
    charts: {
      conversionsPerDay: days.map((d) => ({ date: d.date, total: num(d.total), completed: num(d.completed), failed: num(d.failed) })),
      revenuePerMonth: months.map((m) => ({ month: m.month, revenue: fromCents(num(m.cents)), revenueCents: num(m.cents), purchases: num(m.purchases) })),
    },
    totalUsers: 0,
    activeUsers: 0,
    totalConversions: 0,
    completedConversions: 0,
    failedConversions: 0,
    pendingConversions: 0,
    totalRevenue: 0,
    monthlyRevenue: 0,
    generatedAt: now.toISOString(),
  };
  Object.assign(figures, {
    totalUsers: figures.users.total,
    activeUsers: figures.users.active,
    totalConversions: figures.conversions.total,
    completedConversions: figures.conversions.completed,
    failedConversions: figures.conversions.failed,
    pendingConversions: figures.conversions.pending,
    totalRevenue: figures.revenue.total,
    monthlyRevenue: figures.revenue.monthly,
  });
  return figures;
}
