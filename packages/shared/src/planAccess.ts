/**
 * Plan access: whether a user may convert, derived from the plan fields alone.
 * Pure and shared: the server gates
 * conversions with it and the dashboard routes with it, so both always agree.
 */
import type { ApiUser, PlanAccessState, PlanAccessStatus, UserRole, UserType } from './accounts.js';
import { PLAN_ACCESS_MESSAGES } from './messages.js';

export interface PlanAccessInput {
  role: UserRole;
  userType: UserType | null;
  /** Free credit balance. */
  credits: number;
  subscriptionPlanId: string | null;
  subscriptionExpiresAt: Date | string | null;
}

function toTime(value: Date | string | null): number | undefined {
  if (value === null) return undefined;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Admins always have access. A credit plan is active with credits above 0, otherwise
 * no_credits. A subscription is active with a plan id and a future expiry, expired once the
 * expiry has passed. Anything else is no_plan.
 */
export function getPlanAccess(input: PlanAccessInput, now: Date = new Date()): PlanAccessStatus {
  if (input.role === 'admin') return 'active';
  if (input.userType === 'credit') return input.credits > 0 ? 'active' : 'no_credits';
  if (input.userType === 'subscription') {
    const expiresAt = toTime(input.subscriptionExpiresAt);
    if (expiresAt === undefined) return 'no_plan';
    if (expiresAt <= now.getTime()) return 'expired';
    return input.subscriptionPlanId ? 'active' : 'no_plan';
  }
  return 'no_plan';
}

export function hasPlanAccess(status: PlanAccessStatus | PlanAccessState): boolean {
  return status === 'active';
}

/** The same input from the user JSON the client holds. */
export function planAccessInputFromUser(user: Pick<ApiUser, 'role' | 'userType' | 'credits' | 'subscription'>): PlanAccessInput {
  return {
    role: user.role,
    userType: user.userType,
    credits: user.credits.available,
    subscriptionPlanId: user.subscription.plan,
    subscriptionExpiresAt: user.subscription.expiresAt,
  };
}

/** Error codes of the 402 answer, one per status without access. */
export const PLAN_ACCESS_ERROR_CODES: Record<Exclude<PlanAccessStatus, 'active'>, string> = {
  no_plan: 'NO_PLAN',
  no_credits: 'NO_CREDITS',
  expired: 'PLAN_EXPIRED',
};

export function planAccessMessage(status: Exclude<PlanAccessStatus, 'active'>): string {
  return PLAN_ACCESS_MESSAGES[status];
}

/** Where the dashboard sends a user without access. */
export const PLAN_ACCESS_REDIRECT = '/plans';
