/**
 * Test data of the admin tests: plans, purchases and conversions written straight to the
 * database (no HTTP, no engine).
 *
 *   const plan = await buildPlan(server, { type: 'subscription', durationMonths: 3 });
 *   await buildPurchase(server, user, plan, { status: 'approved' });
 */
import type { InferCreationAttributes } from 'sequelize';
import type { AppContext } from '../../src/context.js';
import type { Conversion, Plan, Purchase, User } from '../../src/models/index.js';

type HasContext = { ctx: AppContext };
let sequence = 0;

export function buildPlan(server: HasContext, overrides: Partial<InferCreationAttributes<Plan>> = {}): Promise<Plan> {
  sequence++;
  const type = overrides.type ?? 'credit';
  return server.ctx.models.Plan.create({
    name: `Plano ${sequence}`,
    type,
    priceCents: 1990,
    credits: type === 'credit' ? 10 : null,
    durationMonths: type === 'subscription' ? 1 : null,
    ...overrides,
  });
}

export function buildPurchase(
  server: HasContext,
  user: User,
  plan: Plan,
  overrides: Partial<InferCreationAttributes<Purchase>> = {},
): Promise<Purchase> {
  const status = overrides.status ?? 'approved';
  return server.ctx.models.Purchase.create({
    userId: user.id,
    planId: plan.id,
    planSnapshot: plan.snapshot(),
    amountCents: plan.priceCents,
    currency: plan.currency,
    provider: 'sandbox',
    status,
    approvedAt: status === 'approved' ? new Date() : null,
    ...overrides,
  });
}

export function buildConversion(server: HasContext, user: User, overrides: Partial<InferCreationAttributes<Conversion>> = {}): Promise<Conversion> {
  sequence++;
  return server.ctx.models.Conversion.create({
    userId: user.id,
    fileName: `app-${sequence}.apk`,
    fileSize: 1024 * sequence,
    ...overrides,
  });
}
