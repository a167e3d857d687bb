/**
 * Measures stalls during an attack, never as timed assertions of the attack itself: a client
 * that polls GET /api/health back to back (the worst answer time), and the event-loop delay of
 * this process (the server under test runs in it) from perf_hooks.monitorEventLoopDelay.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface StallFigures {
  /** Health requests answered while probing. */
  healthChecks: number;
  /** Slowest health answer (ms), a request still in flight at stop included. */
  worstHealthMs: number;
  /** Health answers other than 200. */
  healthFailures: number;
  /** Longest event-loop delay seen in this process (ms). */
  maxEventLoopDelayMs: number;
}

export function probeStalls(baseUrl: string, pauseMs = 50): { stop(): Promise<StallFigures> } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const figures: StallFigures = { healthChecks: 0, worstHealthMs: 0, healthFailures: 0, maxEventLoopDelayMs: 0 };
  let running = true;
  const polling = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${baseUrl}/api/health`);
        await res.arrayBuffer();
        if (res.status !== 200) figures.healthFailures++;
      } catch {
        figures.healthFailures++;
      }
      figures.healthChecks++;
      figures.worstHealthMs = Math.max(figures.worstHealthMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await polling;
      loop.disable();
      figures.maxEventLoopDelayMs = loop.max / 1e6;
      figures.worstHealthMs = Math.round(figures.worstHealthMs);
      figures.maxEventLoopDelayMs = Math.round(figures.maxEventLoopDelayMs);
      return figures;
    },
  };
}

/** Runs `work` while a client polls /api/health every `pauseMs`: its result and the slowest health answer (ms). */
export async function worstHealthDuring<T>(baseUrl: string, work: () => Promise<T>, pauseMs = 100): Promise<{ result: T; worstMs: number }> {
  const probe = probeStalls(baseUrl, pauseMs);
  try {
    const result = await work();
    return { result, worstMs: (await probe.stop()).worstHealthMs };
  } catch (err) {
    await probe.stop();
    throw err;
  }
}
