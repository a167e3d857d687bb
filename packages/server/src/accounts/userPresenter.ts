/** The only way a user leaves the server: no hash, no token version, dates as ISO strings. */
import { conversionMonthKey, type ApiUser, type AuthResponse, type UsageSummary } from '@aabify/shared';
import type { AuthService, SessionState } from './authService.js';
import type { User } from '../models/index.js';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function presentUsageSummary(user: User, now: Date = new Date()): UsageSummary {
  const planAccess = user.planAccess(now);
  const expiresAt = user.subscriptionExpiresAt;
  return {
    hasActivePlan: planAccess === 'active',
    userType: user.userType,
    credits: user.credits,
    remainingCredits: user.credits,
    expiresAt: iso(expiresAt),
    isExpired: expiresAt ? expiresAt.getTime() <= now.getTime() : false,
    planActivatedAt: iso(user.planActivatedAt),
    planAccess,
  };
}

export function presentUser(user: User, now: Date = new Date()): ApiUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    isActive: user.isActive,
    userType: user.userType,
    currentPlan: user.userType
      ? {
          planId: user.currentPlanId,
          purchaseId: user.currentPurchaseId,
          type: user.userType,
          credits: user.credits,
          subscriptionDetails: { expiresAt: iso(user.subscriptionExpiresAt) },
          activatedAt: iso(user.planActivatedAt),
        }
      : null,
    credits: { available: user.credits, reserved: user.creditsReserved },
    subscription: {
      plan: user.subscriptionPlanId,
      startsAt: iso(user.subscriptionStartsAt),
      expiresAt: iso(user.subscriptionExpiresAt),
    },
    conversionsCount: user.conversionsCount,
    monthlyConversions: user.monthlyConversionsMonth === conversionMonthKey(now) ? user.monthlyConversions : 0,
    lastLogin: iso(user.lastLogin),
    emailVerified: Boolean(user.emailVerifiedAt),
    notifyConversions: user.notifyConversions,
    notifyConversionFailures: user.notifyConversionFailures,
    notifyProductNews: user.notifyProductNews,
    twoFactorEnabled: user.twoFactorEnabled(),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    usageSummary: presentUsageSummary(user, now),
  };
}

/** The user as the signed-in session sees it (/auth/me, sign-in): with what this session may do. */
export function presentSessionUser(user: User, session: Pick<SessionState, 'enrolmentOnly'> | undefined): ApiUser {
  return { ...presentUser(user), ...(session?.enrolmentOnly ? { twoFactorSetupRequired: true } : {}) };
}

/** A new session's answer, as sign-in, setup and the e-mailed links give it. */
export function presentSession(auth: Pick<AuthService, 'sessionTtlSeconds'>, user: User, token: string, enrolmentOnly: boolean): AuthResponse {
  return { token, expiresIn: auth.sessionTtlSeconds, user: presentSessionUser(user, { enrolmentOnly }) };
}

/** What the audit trail keeps of an account before and after a change (never its password or tokens). */
export function userAuditView(user: User): Record<string, unknown> {
  return {
    email: user.email,
    name: user.name,
    role: user.role,
    isActive: user.isActive,
    userType: user.userType,
    credits: user.credits,
    subscriptionPlanId: user.subscriptionPlanId,
    subscriptionExpiresAt: iso(user.subscriptionExpiresAt),
    emailVerified: Boolean(user.emailVerifiedAt),
  };
}

/** A user as the audit trail names a target. */
export const userAuditTarget = (user: Pick<User, 'id' | 'email'>) => ({ type: 'user' as const, id: user.id, label: user.email });
