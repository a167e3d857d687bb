/**
 * What a plan does to a user (docs/decisions.md, "Credits and plans"): a credit plan adds its credits;
 * a subscription sets the expiry to (later of now and the current expiry) + its months. The
 * bought plan becomes the current one and sets userType; unspent credits are always kept.
 * The caller holds the user's row lock and saves the user in its transaction.
 */
import type { PlanSnapshot } from '@aabify/shared';
import type { PlanGrant, User } from '../models/index.js';

/** Calendar months, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export interface AppliedPurchase {
  id: string;
  planId: string | null;
  planSnapshot: PlanSnapshot;
}

/** Changes the user in memory and answers what changed (kept on the purchase for a refund). */
export function applyPlan(user: User, purchase: AppliedPurchase, now: Date = new Date()): PlanGrant {
  const snapshot = purchase.planSnapshot;
  const previousUserType = user.userType;
  const previousExpiresAt = user.subscriptionExpiresAt;
  const grant: PlanGrant = {
    type: snapshot.type,
    creditsAdded: 0,
    previousUserType,
    previousExpiresAt: previousExpiresAt ? previousExpiresAt.toISOString() : null,
    newExpiresAt: null,
  };
  if (snapshot.type === 'credit') {
    const credits = snapshot.credits ?? 0;
    user.credits = user.credits + credits;
    grant.creditsAdded = credits;
  } else {
    const stillRunning = previousExpiresAt !== null && previousExpiresAt.getTime() > now.getTime();
    const base = stillRunning ? previousExpiresAt : now;
    const expiresAt = addMonths(base, snapshot.duration ?? 1);
    user.subscriptionExpiresAt = expiresAt;
    user.subscriptionPlanId = purchase.planId;
    if (!stillRunning) user.subscriptionStartsAt = now;
    grant.newExpiresAt = expiresAt.toISOString();
  }
  user.userType = snapshot.type;
  user.currentPlanId = purchase.planId;
  user.currentPurchaseId = purchase.id;
  user.planActivatedAt = now;
  return grant;
}

/**
 * A refund takes back what is unspent: the granted credits from the free balance, and the rest
 * from credits held by conversions still running (`creditsOwed`: when such a conversion fails
 * or is cancelled its credit pays the debt instead of coming back; when it completes, it was
 * spent); for a subscription, the time this purchase added, which ends it when nothing else
 * extended it.
 */
export function revokePlan(user: User, grant: PlanGrant, appliedAt: Date, now: Date = new Date()): PlanGrant {
  const result: PlanGrant = { ...grant };
  if (grant.type === 'credit') {
    const fromBalance = Math.min(grant.creditsAdded, user.credits);
    const fromReserved = Math.min(grant.creditsAdded - fromBalance, user.creditsReserved - user.creditsOwed);
    user.credits = user.credits - fromBalance;
    user.creditsOwed = user.creditsOwed + fromReserved;
    result.creditsTakenBack = fromBalance;
    if (fromReserved > 0) result.creditsHeldBack = fromReserved;
  } else if (grant.newExpiresAt && user.subscriptionExpiresAt) {
    const previous = grant.previousExpiresAt ? new Date(grant.previousExpiresAt).getTime() : 0;
    const addedMs = new Date(grant.newExpiresAt).getTime() - Math.max(previous, appliedAt.getTime());
    const reduced = user.subscriptionExpiresAt.getTime() - Math.max(0, addedMs);
    const endsAt = new Date(Math.max(reduced, now.getTime()));
    user.subscriptionExpiresAt = endsAt;
    result.subscriptionEndedAt = endsAt.toISOString();
  }
  return result;
}
