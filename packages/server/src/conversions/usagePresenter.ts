/** GET /conversion/usage: what the user may convert now and what they have used. */
import {
  CONVERSION_MESSAGES,
  PLAN_ACCESS_MESSAGES,
  PLAN_ACCESS_REDIRECT,
  conversionMonthKey,
  type UsageInfo,
} from '@aabify/shared';
import type { User } from '../models/index.js';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The plan the user's usage follows: the subscription's, else the one the credits came with. */
export function usagePlanId(user: User): string | null {
  return user.userType === 'subscription' ? user.subscriptionPlanId : user.currentPlanId;
}

export function presentUsage(user: User, activeConversions: number, planName: string | null, now: Date = new Date()): UsageInfo {
  const access = user.planAccess(now);
  const admin = user.hasAdminRole();
  const subscription = user.userType === 'subscription';
  const expiresAt = user.subscriptionExpiresAt;
  const isExpired = subscription && expiresAt ? expiresAt.getTime() <= now.getTime() : false;
  const canConvert = access === 'active';
  const message = canConvert
    ? admin
      ? 'Administradores convertem sem limite.'
      : subscription
        ? 'Assinatura ativa: conversões ilimitadas.'
        : `Você tem ${user.credits} crédito(s) disponível(is).`
    : access === 'no_credits'
      ? CONVERSION_MESSAGES.notEnoughCredits
      : access === 'expired'
        ? CONVERSION_MESSAGES.cannotConvert
        : PLAN_ACCESS_MESSAGES.no_plan;
  return {
    hasActivePlan: canConvert,
    planId: usagePlanId(user),
    planName,
    type: user.userType,
    isActive: canConvert,
    credits: user.credits,
    remainingCredits: user.credits,
    expiresAt: iso(expiresAt),
    isExpired,
    currentMonthUsage: user.monthlyConversionsMonth === conversionMonthKey(now) ? user.monthlyConversions : 0,
    remaining: admin || subscription ? 'unlimited' : user.credits,
    canConvert,
    totalConversions: user.conversionsCount,
    planActivatedAt: iso(user.planActivatedAt),
    message,
    redirectTo: canConvert ? null : PLAN_ACCESS_REDIRECT,
    usageSummary: {
      userType: admin ? 'admin' : user.userType,
      credits: user.credits,
      reservedCredits: user.creditsReserved,
      activeConversions,
    },
  };
}
