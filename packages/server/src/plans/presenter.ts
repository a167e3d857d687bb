/** The only way a plan leaves the server: money as cents and major units, dates as ISO. */
import { formatMoney, fromCents, type ApiPlan } from '@aabify/shared';
import type { Plan } from '../models/index.js';

export function presentPlan(plan: Plan): ApiPlan {
  return {
    id: plan.id,
    _id: plan.id,
    name: plan.name,
    description: plan.description,
    type: plan.type,
    price: fromCents(plan.priceCents),
    priceCents: plan.priceCents,
    currency: plan.currency,
    formattedPrice: formatMoney(plan.priceCents, plan.currency),
    credits: plan.type === 'credit' ? plan.credits : null,
    subscriptionDetails: plan.type === 'subscription' ? { duration: plan.durationMonths ?? 1, unlimited: true } : null,
    features: plan.features,
    isPopular: plan.isPopular,
    displayOrder: plan.displayOrder,
    isActive: plan.isActive,
    salesCount: plan.salesCount,
    totalRevenue: fromCents(plan.totalRevenueCents),
    totalRevenueCents: plan.totalRevenueCents,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of a plan before and after a change (prices in cents). */
export function planAuditView(plan: Plan): Record<string, unknown> {
  return {
    name: plan.name,
    description: plan.description,
    type: plan.type,
    priceCents: plan.priceCents,
    currency: plan.currency,
    credits: plan.credits,
    durationMonths: plan.durationMonths,
    features: plan.features,
    isActive: plan.isActive,
    isPopular: plan.isPopular,
    displayOrder: plan.displayOrder,
  };
}

/** A plan as the audit trail names a target. */
export const planAuditTarget = (plan: Pick<Plan, 'id' | 'name'>) => ({ type: 'plan' as const, id: plan.id, label: plan.name });
