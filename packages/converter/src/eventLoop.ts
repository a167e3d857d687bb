/**
 * Turns of the event loop for long synchronous work on the main thread. The thread pool's
 * finished jobs (a dex inflated for the estimate, then deflated; the background verifier's
 * chunks) only go on from a callback on this thread: through a resource conversion of ~0.1 s
 * without a turn, the estimate of a 1 MB APK waited, and so did the end of the conversion.
 */
import { monotonicMs } from './clock.js';

const TURN_EVERY_MS = 5;

/** A function to call between units of work: it resolves at once, or after a turn of the event loop once `everyMs` have passed since the last one. */
export function eventLoopTurns(everyMs = TURN_EVERY_MS): () => Promise<void> {
  let last = monotonicMs();
  return async () => {
    if (monotonicMs() - last < everyMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = monotonicMs();
  };
}
