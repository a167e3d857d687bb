/**
 * Route guards (docs/dashboard.md "Screens and routes"). Plan-access
 * redirects are decided when a route is entered, not while the user is on it: a conversion
 * that spends the last credit must not pull the user away from its result.
 */
import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { planAccessMessage, type PlanAccessState } from '@aabify/shared';
import { isAdmin, useSession } from '../stores/session';
import { usePlanAccess } from '../stores/planAccess';
import { planAccessOf } from '../lib/planStatus';
import { pendingPayment, plansOpenWithAccess } from '../pages/plans/pendingPayment';
import { Loading } from './Loading';

/** State carried to /plans by a plan-access redirect. */
export interface PlanRedirectState {
  from: string;
  reason: string;
  status: Exclude<PlanAccessState, 'active' | 'loading'>;
}

/** State a link sets to open /plans while the plan is still active (buy more credits, renew). */
export interface PlansEntryState {
  topUp?: boolean;
}

export function homePath(role: string | undefined): string {
  return role === 'admin' ? '/admin' : '/dashboard';
}

/**
 * A decision made once per navigation (location.key), once it no longer depends on loading
 * data. One marked provisional (taken on the stored user while the session is being
 * confirmed) is taken again once it is not.
 */
function useEntryDecision<T>(compute: () => T | undefined, provisional = false): T | undefined {
  const location = useLocation();
  const [decided, setDecided] = useState<{ key: string; value: T; provisional: boolean } | null>(null);
  if (decided?.key !== location.key || (decided.provisional && !provisional)) {
    const value = compute();
    if (value === undefined) return undefined;
    // Kept for this navigation: React renders again at once with it, before anything is shown.
    setDecided({ key: location.key, value, provisional });
    return value;
  }
  return decided.value;
}

/** Where a session limited to two-factor enrolment may be (everything else would answer 403). */
export const TWO_FACTOR_SETUP_PATH = '/account/security';

export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  const enrolmentOnly = useSession((s) => s.user?.twoFactorSetupRequired === true);
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (enrolmentOnly && location.pathname !== TWO_FACTOR_SETUP_PATH) return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  return children;
}

/** /login and /register: a signed-in user goes home. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  const user = useSession((s) => s.user);
  if (token && user) return <Navigate to={homePath(user.role)} replace />;
  return children;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const user = useSession((s) => s.user);
  const verifying = useSession((s) => s.verifying);
  if (!user) return <Loading />;
  if (!isAdmin(user)) return verifying ? <Loading /> : <Navigate to="/dashboard" replace />;
  return children;
}

/** / and unknown paths. */
export function HomeRedirect() {
  const user = useSession((s) => s.user);
  if (!user) return <Loading />;
  return <Navigate to={homePath(user.role)} replace />;
}

type Decision = { go: string; state?: PlanRedirectState } | 'allow';

/**
 * Plan access for /dashboard, /converter and /history. Admins pass (and /dashboard sends them
 * to /admin). Others without access go to /plans carrying origin, reason and status — or to
 * `fallback` (/history goes to /dashboard).
 */
export function RequirePlan({ children, fallback, adminTo }: { children: ReactNode; fallback?: string; adminTo?: string }) {
  const user = useSession((s) => s.user);
  const access = usePlanAccess();
  const location = useLocation();
  // A stored user with an active plan opens the screen at once, without waiting for the
  // session check (a round trip on first load); the confirmed user decides again.
  const provisional = access === 'loading' && user !== null && planAccessOf(user) === 'active';
  const decision = useEntryDecision<Decision>(() => {
    if (user && isAdmin(user)) return adminTo ? { go: adminTo } : 'allow';
    if (provisional) return 'allow';
    if (access === 'loading' || !user) return undefined;
    if (access === 'active') return 'allow';
    if (fallback) return { go: fallback };
    return { go: '/plans', state: { from: location.pathname + location.search, reason: planAccessMessage(access), status: access } };
  }, provisional);
  if (decision === undefined) return <Loading />;
  if (decision === 'allow') return children;
  return <Navigate to={decision.go} replace state={decision.state} />;
}

/** /plans: users who already have access go to /dashboard unless they came to buy more or a payment is pending. */
export function PlansGuard({ children }: { children: ReactNode }) {
  const user = useSession((s) => s.user);
  const access = usePlanAccess();
  const location = useLocation();
  const decision = useEntryDecision<Decision>(() => {
    if (user && isAdmin(user)) return 'allow';
    if (access === 'loading' || !user) return undefined;
    const state = location.state as (PlansEntryState & Partial<PlanRedirectState>) | null;
    if (access === 'active' && !plansOpenWithAccess(state, pendingPayment.read(user.id) !== undefined)) return { go: '/dashboard' };
    return 'allow';
  });
  if (decision === undefined) return <Loading />;
  if (decision === 'allow') return children;
  return <Navigate to={decision.go} replace />;
}
