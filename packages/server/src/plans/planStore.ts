/**
 * Plan writes and the admin filter query. Prices arrive in major units (the form's value)
 * and are kept in cents. A plan that was ever bought is deactivated instead of destroyed, so
 * its purchases keep their plan; the snapshot on each purchase keeps what was sold anyway.
 */
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import {
  PLAN_MESSAGES,
  planInputSchema,
  toCents,
  type PlanFilterQuery,
  type PlanInput,
  type PlanSortField,
  isUuid,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Plan } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { parseInput } from '../http/validate.js';
import { likePattern } from '../http/listing.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize'>;


export function planAttributes(input: PlanInput) {
  return {
    name: input.name,
    description: input.description,
    type: input.type,
    priceCents: toCents(input.price),
    currency: input.currency,
    credits: input.type === 'credit' ? (input.credits ?? null) : null,
    durationMonths: input.type === 'subscription' ? (input.subscriptionDetails?.duration ?? 1) : null,
    features: input.features,
    isPopular: input.isPopular,
    ...(input.displayOrder !== undefined ? { displayOrder: input.displayOrder } : {}),
    isActive: input.isActive,
  };
}

/** A plan as the input it would have been created from (the base an update is merged onto). */
export function planAsInput(plan: Plan): Record<string, unknown> {
  return {
    name: plan.name,
    description: plan.description,
    type: plan.type,
    price: plan.priceCents / 100,
    currency: plan.currency,
    credits: plan.credits ?? undefined,
    subscriptionDetails: plan.durationMonths ? { duration: plan.durationMonths } : undefined,
    features: plan.features,
    isPopular: plan.isPopular,
    displayOrder: plan.displayOrder,
    isActive: plan.isActive,
  };
}

export async function findPlan(ctx: Ctx, id: unknown, opts: { activeOnly?: boolean; transaction?: Transaction } = {}): Promise<Plan> {
  const plan = typeof id === 'string' && isUuid(id) ? await ctx.models.Plan.findByPk(id, { transaction: opts.transaction }) : null;
  if (!plan || (opts.activeOnly && !plan.isActive)) throw ApiError.notFound(PLAN_MESSAGES.notFound, 'PLAN_NOT_FOUND');
  return plan;
}

/** A plan sent without a display order goes last (after every plan there is). */
export async function createPlan(ctx: Ctx, input: PlanInput): Promise<Plan> {
  const attributes = planAttributes(input);
  const displayOrder = input.displayOrder ?? ((await ctx.models.Plan.max<number, Plan>('displayOrder')) ?? 0) + 1;
  return ctx.models.Plan.create({ ...attributes, displayOrder });
}

/** Merges the changed fields onto the plan and checks the result whole. */
export async function updatePlan(ctx: Ctx, plan: Plan, patch: unknown): Promise<Plan> {
  const changes = typeof patch === 'object' && patch !== null ? (patch as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...planAsInput(plan), ...changes };
  // Changing the type drops the other type's details.
  if (changes.type && changes.type !== plan.type) {
    if (changes.type === 'credit' && changes.credits === undefined) merged.credits = undefined;
    if (changes.type === 'subscription' && changes.subscriptionDetails === undefined) merged.subscriptionDetails = undefined;
  }
  const input = await parseInput(planInputSchema, merged);
  return plan.update(planAttributes(input));
}

async function hasPurchases(ctx: Ctx, planId: string, transaction?: Transaction): Promise<boolean> {
  return (await ctx.models.Purchase.count({ where: { planId }, transaction })) > 0;
}

/** 'deleted', or 'deactivated' when the plan has purchases. */
export async function deletePlan(ctx: Ctx, plan: Plan): Promise<'deleted' | 'deactivated'> {
  return ctx.sequelize.transaction(async (transaction) => {
    await ctx.models.Plan.findByPk(plan.id, { transaction, lock: transaction.LOCK.UPDATE });
    if (await hasPurchases(ctx, plan.id, transaction)) {
      await plan.update({ isActive: false }, { transaction });
      return 'deactivated';
    }
    await plan.destroy({ transaction });
    return 'deleted';
  });
}

export async function duplicatePlan(ctx: Ctx, plan: Plan, newName?: string): Promise<Plan> {
  const name = (newName?.trim() || `${plan.name} ${PLAN_MESSAGES.copySuffix}`).slice(0, 100);
  const maxOrder = (await ctx.models.Plan.max<number, Plan>('displayOrder')) ?? 0;
  // A copy starts hidden and not popular, with no sales: it is a draft to edit before selling.
  return ctx.models.Plan.create({
    name,
    description: plan.description,
    type: plan.type,
    priceCents: plan.priceCents,
    currency: plan.currency,
    credits: plan.credits,
    durationMonths: plan.durationMonths,
    features: [...plan.features],
    isPopular: false,
    displayOrder: maxOrder + 1,
    isActive: false,
  });
}

export async function reorderPlans(ctx: Ctx, orders: Array<{ planId: string; displayOrder: number }>): Promise<number> {
  return ctx.sequelize.transaction(async (transaction) => {
    let updated = 0;
    for (const { planId, displayOrder } of orders) {
      const [count] = await ctx.models.Plan.update({ displayOrder }, { where: { id: planId }, transaction });
      updated += count;
    }
    if (updated !== new Set(orders.map((o) => o.planId)).size) throw ApiError.notFound(PLAN_MESSAGES.notFound, 'PLAN_NOT_FOUND');
    return updated;
  });
}

export interface BulkUpdates {
  price?: number;
  currency?: PlanInput['currency'];
  displayOrder?: number;
  isActive?: boolean;
  isPopular?: boolean;
}

export async function bulkUpdatePlans(ctx: Ctx, planIds: string[], updates: BulkUpdates): Promise<number> {
  const values: Partial<Pick<Plan, 'priceCents' | 'currency' | 'displayOrder' | 'isActive' | 'isPopular'>> = {};
  if (updates.price !== undefined) values.priceCents = toCents(updates.price);
  if (updates.currency !== undefined) values.currency = updates.currency;
  if (updates.displayOrder !== undefined) values.displayOrder = updates.displayOrder;
  if (updates.isActive !== undefined) values.isActive = updates.isActive;
  if (updates.isPopular !== undefined) values.isPopular = updates.isPopular;
  const [count] = await ctx.models.Plan.update(values, { where: { id: { [Op.in]: planIds } } });
  return count;
}

export async function bulkDeletePlans(ctx: Ctx, planIds: string[]): Promise<{ deletedCount: number; deactivatedCount: number }> {
  return ctx.sequelize.transaction(async (transaction) => {
    const plans = await ctx.models.Plan.findAll({ where: { id: { [Op.in]: planIds } }, transaction, lock: transaction.LOCK.UPDATE });
    const sold = await ctx.models.Purchase.findAll({
      attributes: ['planId'],
      where: { planId: { [Op.in]: plans.map((p) => p.id) } },
      group: ['planId'],
      transaction,
    });
    const soldIds = new Set(sold.map((p) => p.planId));
    let deletedCount = 0;
    let deactivatedCount = 0;
    for (const plan of plans) {
      if (soldIds.has(plan.id)) {
        await plan.update({ isActive: false }, { transaction });
        deactivatedCount++;
      } else {
        await plan.destroy({ transaction });
        deletedCount++;
      }
    }
    return { deletedCount, deactivatedCount };
  });
}

const SORT_COLUMNS: Record<PlanSortField, string> = {
  displayOrder: 'displayOrder',
  name: 'name',
  price: 'priceCents',
  type: 'type',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  salesCount: 'salesCount',
  totalRevenue: 'totalRevenueCents',
};


export function planFilterWhere(query: Partial<PlanFilterQuery>, opts: { activeOnly?: boolean } = {}): WhereOptions<Plan> {
  const and: WhereOptions<Plan>[] = [];
  if (query.search) {
    const pattern = likePattern(query.search);
    and.push({ [Op.or]: [{ name: { [Op.iLike]: pattern } }, { description: { [Op.iLike]: pattern } }] });
  }
  if (query.type && query.type !== 'all') and.push({ type: query.type });
  if (opts.activeOnly) and.push({ isActive: true });
  else if (query.status === 'active') and.push({ isActive: true });
  else if (query.status === 'inactive') and.push({ isActive: false });
  else if (query.isActive !== undefined) and.push({ isActive: query.isActive });
  if (query.isPopular !== undefined) and.push({ isPopular: query.isPopular });
  if (query.minPrice !== undefined) and.push({ priceCents: { [Op.gte]: toCents(query.minPrice) } });
  if (query.maxPrice !== undefined) and.push({ priceCents: { [Op.lte]: toCents(query.maxPrice) } });
  return { [Op.and]: and };
}

export async function listPlans(
  ctx: Ctx,
  query: PlanFilterQuery,
  opts: { activeOnly?: boolean; all?: boolean } = {},
): Promise<{ plans: Plan[]; total: number }> {
  const column = SORT_COLUMNS[query.sortBy ?? 'displayOrder'];
  const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
  const { rows, count } = await ctx.models.Plan.findAndCountAll({
    where: planFilterWhere(query, opts),
    order: [
      [column, direction],
      ['name', 'ASC'],
      ['id', 'ASC'],
    ],
    limit: opts.all ? 10000 : query.limit,
    offset: opts.all ? 0 : (query.page - 1) * query.limit,
  });
  return { plans: rows, total: count };
}
