/**
 * Plan access on the client: the shared getPlanAccess over the session's user, the usage
 * info (refetched every 30 s where shown), and the user refetched on window focus when older
 * than 30 s.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { PlanAccessState } from '@aabify/shared';
import { conversionApi, type UsageInfo } from '../api/conversions';
import { planAccessOf } from '../lib/planStatus';
import { PLAN_SYNC, planSyncDelay } from '../lib/pixPolling';
import { USER_FRESH_MS, useSession } from './session';

export const USAGE_REFRESH_MS = 30000;

/** loading while a stored session is being confirmed; otherwise the shared rule. */
export function usePlanAccess(): PlanAccessState {
  const token = useSession((s) => s.token);
  const user = useSession((s) => s.user);
  const verifying = useSession((s) => s.verifying);
  if (!token) return 'no_plan';
  if (verifying || !user) return 'loading';
  return planAccessOf(user);
}

interface UsageState {
  usage: UsageInfo | null;
  fetchedAt: number;
  load(): Promise<UsageInfo | null>;
  clear(): void;
}

export const useUsage = create<UsageState>((set) => ({
  usage: null,
  fetchedAt: 0,
  load: async () => {
    try {
      const usage = await conversionApi.usage();
      set({ usage, fetchedAt: Date.now() });
      return usage;
    } catch {
      return null;
    }
  },
  clear: () => set({ usage: null, fetchedAt: 0 }),
}));

/** Loads usage now and every 30 s while the calling screen is shown. */
export function useUsagePolling(enabled = true): UsageInfo | null {
  const usage = useUsage((s) => s.usage);
  useEffect(() => {
    if (!enabled) return;
    void useUsage.getState().load();
    const t = setInterval(() => void useUsage.getState().load(), USAGE_REFRESH_MS);
    return () => clearInterval(t);
  }, [enabled]);
  return usage;
}

/** Refetches the user (and so the plan) when the window regains focus and the data is stale. */
export function usePlanRefreshOnFocus(): void {
  useEffect(() => {
    const onFocus = () => {
      const s = useSession.getState();
      if (s.token && Date.now() - s.userFetchedAt > USER_FRESH_MS) void s.refreshUser();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** After a payment is approved: refresh the user up to 3 times (1 s × attempt) until the plan is active. */
export async function syncPlanAfterApproval(): Promise<boolean> {
  for (let attempt = 1; attempt <= PLAN_SYNC.attempts; attempt++) {
    const user = await useSession.getState().refreshUser();
    if (user && planAccessOf(user) === 'active') {
      void useUsage.getState().load();
      return true;
    }
    if (attempt < PLAN_SYNC.attempts) await sleep(planSyncDelay(attempt));
  }
  return false;
}
