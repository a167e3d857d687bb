/**
 * Milliseconds since an arbitrary start, for durations and deadlines. The global `performance`
 * would do, but its first use loads Node's perf_hooks: ~1 ms of every CLI conversion's start.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
