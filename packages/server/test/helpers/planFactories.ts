/**
 * Test data for plans and purchases, written straight to the database.
 *
 *   const plan = await buildPlan(server, { type: 'subscription', durationMonths: 3 });
 *   const purchase = await buildPurchase(server, user, plan, { status: 'approved', approvedAt });
 */
import type { InferCreationAttributes } from 'sequelize';
import type { PurchaseStatus } from '@aabify/shared';
import type { AppContext } from '../../src/context.js';
import type { Plan, Purchase, User } from '../../src/models/index.js';

type HasContext = { ctx: AppContext };

let sequence = 0;

export async function buildPlan(server: HasContext, overrides: Partial<InferCreationAttributes<Plan>> = {}): Promise<Plan> {
  sequence++;
  const type = overrides.type ?? 'credit';
  return server.ctx.models.Plan.create({
    name: `Plano ${sequence}`,
    type,
    priceCents: 1990,
    credits: type === 'credit' ? 10 : null,
    durationMonths: type === 'subscription' ? 1 : null,
    displayOrder: sequence,
    ...overrides,
  });
}

/** A purchase row as a finished payment flow would leave it (no plan applied to the user). */
export async function buildPurchase(
  server: HasContext,
  user: User,
  plan: Plan,
  overrides: Partial<InferCreationAttributes<Purchase>> & { status?: PurchaseStatus } = {},
): Promise<Purchase> {
  return server.ctx.models.Purchase.create({
    userId: user.id,
    planId: plan.id,
    planSnapshot: plan.snapshot(),
    amountCents: plan.priceCents,
    currency: plan.currency,
    provider: 'sandbox',
    ...overrides,
  });
}
