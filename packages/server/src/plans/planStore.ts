/**
 * Plan writes and the admin filter query. Prices arrive in major units (the form's value)
 * and are kept in cents. A plan that was ever bought is deactivated instead of destroyed, so
 * its purchases keep their plan; the snapshot on each purchase keeps what was sold anyway.
 * Every write takes the acting admin and records each plan's before and after in the audit
 * trail, in the write's transaction (bulk writes: one event per plan, `details.bulk`).
 */
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import {
  CURRENCIES,
  PLAN_MESSAGES,
  planCurrencyUnsupportedMessage,
  planInputSchema,
  type Currency,
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
import type { SignedInActor } from '../audit/actor.js';
import { auditChanges, recordAudit, type AuditEntry } from '../audit/recorder.js';
import { planAuditTarget, planAuditView } from './presenter.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize' | 'payments'>;

/**
 * The currencies a configured provider charges. A provider in its error state still counts: its
 * plans stay on sale and the buyer's click answers 503 until an admin mends the keys.
 */
export async function chargeableCurrencies(ctx: Pick<AppContext, 'payments'>): Promise<Currency[]> {
  const routes = await ctx.payments.routes();
  return CURRENCIES.filter((currency) => routes[currency] !== null && routes[currency] !== undefined);
}

/** A plan is put on sale (activated, or an active plan's currency changed) only where a provider can charge its currency. */
async function assertSellable(ctx: Ctx, before: { isActive: boolean; currency: Currency } | null, after: { isActive: boolean; currency: Currency }): Promise<void> {
  if (!after.isActive || (before?.isActive && before.currency === after.currency)) return;
  if ((await chargeableCurrencies(ctx)).includes(after.currency)) return;
  const message = planCurrencyUnsupportedMessage(after.currency);
  throw ApiError.validation({ currency: message }, message);
}

/** Records a plan's change (the fields that differ from `before`; everything when there was no plan). */
async function recordPlanChange(
  ctx: Ctx,
  action: AuditEntry['action'],
  actor: SignedInActor,
  plan: Plan,
  before: Record<string, unknown> | null,
  transaction: Transaction,
  details?: Record<string, unknown>,
): Promise<void> {
  const change = before ? auditChanges(before, planAuditView(plan)) : { before: null, after: planAuditView(plan) };
  await recordAudit(ctx, { action, actor, target: planAuditTarget(plan), ...change, details }, { transaction });
}


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

/** `currencies`: only a plan in one of them is found (a customer never sees a plan nobody can charge). */
export async function findPlan(ctx: Pick<Ctx, 'models'>, id: unknown, opts: { activeOnly?: boolean; currencies?: readonly Currency[]; transaction?: Transaction } = {}): Promise<Plan> {
  const plan = typeof id === 'string' && isUuid(id) ? await ctx.models.Plan.findByPk(id, { transaction: opts.transaction }) : null;
  if (!plan || (opts.activeOnly && !plan.isActive) || (opts.currencies && !opts.currencies.includes(plan.currency))) throw ApiError.notFound(PLAN_MESSAGES.notFound, 'PLAN_NOT_FOUND');
  return plan;
}

/** A plan sent without a display order goes last (after every plan there is). */
export async function createPlan(ctx: Ctx, actor: SignedInActor, input: PlanInput): Promise<Plan> {
  const attributes = planAttributes(input);
  await assertSellable(ctx, null, attributes);
  return ctx.sequelize.transaction(async (transaction) => {
    const displayOrder = input.displayOrder ?? ((await ctx.models.Plan.max<number, Plan>('displayOrder', { transaction })) ?? 0) + 1;
    const plan = await ctx.models.Plan.create({ ...attributes, displayOrder }, { transaction });
    await recordPlanChange(ctx, 'plan.created', actor, plan, null, transaction);
    return plan;
  });
}

/** Writes some of a plan's attributes under its row lock and records what changed. */
async function changePlan(ctx: Ctx, actor: SignedInActor, plan: Plan, values: Partial<ReturnType<typeof planAttributes>>): Promise<Plan> {
  return ctx.sequelize.transaction(async (transaction) => {
    const locked = await ctx.models.Plan.findByPk(plan.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!locked) throw ApiError.notFound(PLAN_MESSAGES.notFound, 'PLAN_NOT_FOUND');
    const before = planAuditView(locked);
    await assertSellable(ctx, locked, { isActive: values.isActive ?? locked.isActive, currency: values.currency ?? locked.currency });
    await locked.update(values, { transaction });
    await recordPlanChange(ctx, 'plan.updated', actor, locked, before, transaction);
    return locked;
  });
}

/** Activates or deactivates a plan. */
export function togglePlanStatus(ctx: Ctx, actor: SignedInActor, plan: Plan): Promise<Plan> {
  return changePlan(ctx, actor, plan, { isActive: !plan.isActive });
}

/** Marks a plan popular or not (the other way round when `popular` is not given). */
export function setPlanPopular(ctx: Ctx, actor: SignedInActor, plan: Plan, popular: boolean | undefined): Promise<Plan> {
  return changePlan(ctx, actor, plan, { isPopular: popular ?? !plan.isPopular });
}

/** Merges the changed fields onto the plan and checks the result whole. */
export async function updatePlan(ctx: Ctx, actor: SignedInActor, plan: Plan, patch: unknown): Promise<Plan> {
  const changes = typeof patch === 'object' && patch !== null ? (patch as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...planAsInput(plan), ...changes };
  // Changing the type drops the other type's details.
  if (changes.type && changes.type !== plan.type) {
    if (changes.type === 'credit' && changes.credits === undefined) merged.credits = undefined;
    if (changes.type === 'subscription' && changes.subscriptionDetails === undefined) merged.subscriptionDetails = undefined;
  }
  const input = await parseInput(planInputSchema, merged);
  return changePlan(ctx, actor, plan, planAttributes(input));
}

async function hasPurchases(ctx: Ctx, planId: string, transaction?: Transaction): Promise<boolean> {
  return (await ctx.models.Purchase.count({ where: { planId }, transaction })) > 0;
}

/** 'deleted', or 'deactivated' when the plan has purchases. */
/** Removes a plan never bought, deactivates one that was; records which, in the same transaction. */
async function removeOrDeactivate(ctx: Ctx, actor: SignedInActor, plan: Plan, sold: boolean, transaction: Transaction, details?: Record<string, unknown>): Promise<'deleted' | 'deactivated'> {
  const before = planAuditView(plan);
  const outcome = sold ? 'deactivated' : 'deleted';
  if (sold) await plan.update({ isActive: false }, { transaction });
  else await plan.destroy({ transaction });
  await recordAudit(
    ctx,
    { action: 'plan.deleted', actor, target: planAuditTarget(plan), before, after: sold ? planAuditView(plan) : null, details: { outcome, ...details } },
    { transaction },
  );
  return outcome;
}

/** 'deleted', or 'deactivated' when the plan has purchases. */
export async function deletePlan(ctx: Ctx, actor: SignedInActor, plan: Plan): Promise<'deleted' | 'deactivated'> {
  return ctx.sequelize.transaction(async (transaction) => {
    const locked = await ctx.models.Plan.findByPk(plan.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!locked) throw ApiError.notFound(PLAN_MESSAGES.notFound, 'PLAN_NOT_FOUND');
    return removeOrDeactivate(ctx, actor, locked, await hasPurchases(ctx, plan.id, transaction), transaction);
  });
}

export async function duplicatePlan(ctx: Ctx, actor: SignedInActor, plan: Plan, newName?: string): Promise<Plan> {
  const name = (newName?.trim() || `${plan.name} ${PLAN_MESSAGES.copySuffix}`).slice(0, 100);
  return ctx.sequelize.transaction(async (transaction) => {
    const copy = await copyPlan(ctx, plan, name, transaction);
    await recordPlanChange(ctx, 'plan.duplicated', actor, copy, null, transaction, { sourcePlanId: plan.id, sourcePlanName: plan.name });
    return copy;
  });
}

async function copyPlan(ctx: Ctx, plan: Plan, name: string, transaction: Transaction): Promise<Plan> {
  const maxOrder = (await ctx.models.Plan.max<number, Plan>('displayOrder', { transaction })) ?? 0;
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
  }, { transaction });
}

/** The plans named, locked in id order for the rest of the transaction. */
async function lockPlans(ctx: Ctx, planIds: readonly string[], transaction: Transaction): Promise<Plan[]> {
  return ctx.models.Plan.findAll({ where: { id: { [Op.in]: [...new Set(planIds)] } }, order: [['id', 'ASC']], transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
}

export async function reorderPlans(ctx: Ctx, actor: SignedInActor, orders: Array<{ planId: string; displayOrder: number }>): Promise<number> {
  return ctx.sequelize.transaction(async (transaction) => {
    const plans = await lockPlans(ctx, orders.map((o) => o.planId), transaction);
    // Every plan named exists, each named once.
    if (plans.length !== orders.length) throw ApiError.notFound(PLAN_MESSAGES.notFound, 'PLAN_NOT_FOUND');
    const byId = new Map(plans.map((p) => [p.id, p]));
    const before = new Map(plans.map((p) => [p.id, planAuditView(p)]));
    let updated = 0;
    for (const { planId, displayOrder } of orders) {
      await byId.get(planId)!.update({ displayOrder }, { transaction });
      updated++;
    }
    for (const plan of plans) {
      if (before.get(plan.id)!.displayOrder !== plan.displayOrder) await recordPlanChange(ctx, 'plan.reordered', actor, plan, before.get(plan.id)!, transaction);
    }
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

export async function bulkUpdatePlans(ctx: Ctx, actor: SignedInActor, planIds: string[], updates: BulkUpdates): Promise<number> {
  const values: Partial<Pick<Plan, 'priceCents' | 'currency' | 'displayOrder' | 'isActive' | 'isPopular'>> = {};
  if (updates.price !== undefined) values.priceCents = toCents(updates.price);
  if (updates.currency !== undefined) values.currency = updates.currency;
  if (updates.displayOrder !== undefined) values.displayOrder = updates.displayOrder;
  if (updates.isActive !== undefined) values.isActive = updates.isActive;
  if (updates.isPopular !== undefined) values.isPopular = updates.isPopular;
  return ctx.sequelize.transaction(async (transaction) => {
    const plans = await lockPlans(ctx, planIds, transaction);
    for (const plan of plans) {
      const before = planAuditView(plan);
      await assertSellable(ctx, plan, { isActive: values.isActive ?? plan.isActive, currency: values.currency ?? plan.currency });
      await plan.update(values, { transaction });
      await recordPlanChange(ctx, 'plan.updated', actor, plan, before, transaction, { bulk: true });
    }
    return plans.length;
  });
}

export async function bulkDeletePlans(ctx: Ctx, actor: SignedInActor, planIds: string[]): Promise<{ deletedCount: number; deactivatedCount: number }> {
  return ctx.sequelize.transaction(async (transaction) => {
    const plans = await lockPlans(ctx, planIds, transaction);
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
      if ((await removeOrDeactivate(ctx, actor, plan, soldIds.has(plan.id), transaction, { bulk: true })) === 'deactivated') deactivatedCount++;
      else deletedCount++;
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


export function planFilterWhere(query: Partial<PlanFilterQuery>, opts: { activeOnly?: boolean; currencies?: readonly Currency[] } = {}): WhereOptions<Plan> {
  const and: WhereOptions<Plan>[] = [];
  if (query.search) {
    const pattern = likePattern(query.search);
    and.push({ [Op.or]: [{ name: { [Op.iLike]: pattern } }, { description: { [Op.iLike]: pattern } }] });
  }
  if (query.type && query.type !== 'all') and.push({ type: query.type });
  if (opts.currencies) and.push({ currency: { [Op.in]: [...opts.currencies] } });
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
  opts: { activeOnly?: boolean; currencies?: readonly Currency[]; all?: boolean } = {},
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
