/**
 * The PIX polling schedule (docs/dashboard.md "Downloads and payments"): start at 2 s, at most 15 polls;
 * the server's recommended interval is used; after poll 5 the interval grows ×1.2 up to 3 s,
 * after poll 10 ×1.5 up to 5 s; after an error ×1.5 up to 8 s; a 404 stops.
 */
import { PIX_POLLING } from '@aabify/shared';

export type PollOutcome =
  | { kind: 'ok'; recommendedInterval?: number }
  | { kind: 'error'; status?: number };

export type PollDecision = { next: number } | { stop: 'max_attempts' | 'not_found' };

/**
 * What to do after poll number `attempt` (1-based) ended with `outcome`, the current interval
 * being `current` ms.
 */
export function nextPixPoll(attempt: number, current: number, outcome: PollOutcome): PollDecision {
  if (outcome.kind === 'error' && outcome.status === 404) return { stop: 'not_found' };
  if (attempt >= PIX_POLLING.maxAttempts) return { stop: 'max_attempts' };
  if (outcome.kind === 'error') return { next: Math.min(current * PIX_POLLING.errorFactor, PIX_POLLING.errorMaxMs) };
  const recommended = outcome.recommendedInterval && outcome.recommendedInterval > 0 ? outcome.recommendedInterval : undefined;
  const base = recommended ?? current;
  if (attempt >= PIX_POLLING.slowerAfterAttempt) {
    return { next: Math.min(Math.max(base, current) * PIX_POLLING.slowerFactor, PIX_POLLING.slowerMaxMs) };
  }
  if (attempt >= PIX_POLLING.slowAfterAttempt) {
    return { next: Math.min(Math.max(base, current) * PIX_POLLING.slowFactor, PIX_POLLING.slowMaxMs) };
  }
  return { next: base };
}

/** The delays of a whole run where every poll answers `recommended` (for docs and tests). */
export function pixPollSchedule(recommended?: number): number[] {
  const delays: number[] = [];
  let current: number = PIX_POLLING.initialIntervalMs;
  delays.push(current);
  for (let attempt = 1; ; attempt++) {
    const d = nextPixPoll(attempt, current, { kind: 'ok', recommendedInterval: recommended });
    if ('stop' in d) return delays;
    current = d.next;
    delays.push(current);
  }
}

/** Plan sync after approval: 3 attempts, waiting 1 s × the attempt number. */
export const PLAN_SYNC = { attempts: 3, delayMs: 1000 } as const;
export function planSyncDelay(attempt: number): number {
  return PLAN_SYNC.delayMs * attempt;
}
