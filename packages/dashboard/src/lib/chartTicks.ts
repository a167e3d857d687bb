/** Axis ticks of the admin charts, chosen here rather than by recharts (which drops ticks unevenly to fit). */

/**
 * Every `step`-th value from the first, `step` the smallest that keeps at most `maxTicks`: the
 * labels stand at equal distances (days 1, 6, 11…), the last one only when the step lands on it.
 */
export function evenTicks<T>(values: readonly T[], maxTicks: number): T[] {
  if (values.length === 0 || maxTicks < 1) return [];
  const step = Math.max(1, Math.ceil(values.length / maxTicks));
  return values.filter((_, i) => i % step === 0);
}

/** At most this many dates under a chart: '31/01' fits six times in a phone's width. */
export const MAX_DATE_TICKS = 6;
