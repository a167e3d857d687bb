/**
 * How the plan card shows a plan: credit warnings and subscription expiry colours, at the
 * thresholds below.
 */
import { getPlanAccess, planAccessInputFromUser, type ApiUser, type PlanAccessStatus } from '@aabify/shared';
import { formatDate } from './format';

export const CREDIT_WARNING_THRESHOLDS = { low: 5, critical: 2 } as const;
export const SUBSCRIPTION_DAY_THRESHOLDS = { renewSoon: 7, notice: 30 } as const;
const DAY_MS = 86400000;

export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'secondary';

export interface CreditDisplay {
  kind: 'credit';
  credits: number;
  tone: Tone;
  /** 'Poucos créditos' / 'Créditos críticos', or none. */
  warning?: string;
}

export interface SubscriptionDisplay {
  kind: 'subscription';
  expiresAt?: string;
  expiresText: string;
  daysLeft: number;
  tone: Tone;
  /** Badge text: 'Expirado', 'N dias restantes'. */
  badge: string;
  /** 'Renovar em breve' at 7 days or fewer. */
  warning?: string;
}

export interface NoPlanDisplay {
  kind: 'none';
}

export type PlanDisplay = CreditDisplay | SubscriptionDisplay | NoPlanDisplay;

export function creditDisplay(credits: number): CreditDisplay {
  if (credits <= CREDIT_WARNING_THRESHOLDS.critical) return { kind: 'credit', credits, tone: 'danger', warning: 'Créditos críticos' };
  if (credits <= CREDIT_WARNING_THRESHOLDS.low) return { kind: 'credit', credits, tone: 'warning', warning: 'Poucos créditos' };
  return { kind: 'credit', credits, tone: 'success' };
}

/** Whole days left, rounded up (an expiry later today counts as 1 day). */
export function daysLeft(expiresAt: string | Date, now: Date = new Date()): number {
  const t = expiresAt instanceof Date ? expiresAt.getTime() : Date.parse(expiresAt);
  return Math.ceil((t - now.getTime()) / DAY_MS);
}

export function subscriptionDisplay(expiresAt: string | null | undefined, now: Date = new Date()): SubscriptionDisplay {
  if (!expiresAt || Number.isNaN(Date.parse(expiresAt))) {
    return { kind: 'subscription', expiresText: '—', daysLeft: 0, tone: 'danger', badge: 'Expirado' };
  }
  const days = daysLeft(expiresAt, now);
  const base = { kind: 'subscription' as const, expiresAt, expiresText: formatDate(expiresAt), daysLeft: days };
  if (days <= 0) return { ...base, tone: 'danger', badge: 'Expirado' };
  const badge = days === 1 ? '1 dia restante' : `${days} dias restantes`;
  if (days <= SUBSCRIPTION_DAY_THRESHOLDS.renewSoon) return { ...base, tone: 'danger', badge, warning: 'Renovar em breve' };
  if (days <= SUBSCRIPTION_DAY_THRESHOLDS.notice) return { ...base, tone: 'warning', badge };
  return { ...base, tone: 'info', badge };
}

export function planDisplay(user: Pick<ApiUser, 'userType' | 'credits' | 'subscription'>, now: Date = new Date()): PlanDisplay {
  if (user.userType === 'credit') return creditDisplay(user.credits.available);
  if (user.userType === 'subscription') return subscriptionDisplay(user.subscription.expiresAt, now);
  return { kind: 'none' };
}

/** The client's plan-access status: the shared rule over the user JSON. */
export function planAccessOf(user: Pick<ApiUser, 'role' | 'userType' | 'credits' | 'subscription'>, now: Date = new Date()): PlanAccessStatus {
  return getPlanAccess(planAccessInputFromUser(user), now);
}

export const PLAN_ACCESS_LABELS: Record<PlanAccessStatus | 'loading', string> = {
  loading: 'Carregando…',
  active: 'Plano Ativo',
  no_plan: 'Sem Plano',
  no_credits: 'Sem Créditos',
  expired: 'Plano Expirado',
};

/** The dashboard tile reads 'Plano Ativo' or 'Sem Plano'. */
export function planTileLabel(status: PlanAccessStatus): 'Plano Ativo' | 'Sem Plano' {
  return status === 'active' ? 'Plano Ativo' : 'Sem Plano';
}
