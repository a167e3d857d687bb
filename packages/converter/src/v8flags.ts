/**
 * V8 flags for a process that exists to run one conversion (the CLI's `convert --local`): call
 * `tuneV8ForConversion()` once, before converting. They can only be set at run time because V8
 * reads them when it acts on them (a bin cannot pass node flags portably). Not for a
 * long-lived server: they are the whole process's.
 *
 * - `--semi-space-growth-factor=1`: V8 doubles the new space (two semi-spaces) each time enough
 *   objects survive a scavenge, up to 2 × 16 MB, and converting a large APK's resources makes it
 *   grow all the way: ~25 MB of peak RSS that the heap's live data never needs. Its maximum can
 *   only be given at start (`--max-semi-space-size`), but the growth factor is read each time the
 *   new space grows (V8's NewSpace::Grow): 1 stops the growth. Setting up a new isolate's heap (a
 *   worker thread's, on that thread) raises the factor back to 2 (V8 gives the flag a minimum
 *   value of 2, enforced then), so the engine sets the flags again as soon as a worker's heap is
 *   set up (`keepFlagsAcrossWorkerStart`), and the worker as its first statement
 *   (`v8FlagsToReapply()`, handed in its workerData).
 * - `--interrupt-budget=1081344` (16 × the default): how much a function must run before V8
 *   tiers it up. A conversion runs much of its code hot for a moment only (each parser and
 *   encoder over one table); TurboFan compiled ~140 functions for the 100 MB APK, ~0.3 s of CPU
 *   on the other core. With 4× the budget, only the long-running loops got there: ~0.15–0.2 s
 *   less CPU, the main thread's time unchanged; with 4× V8's compiler threads still took ~7 %
 *   of the process's CPU samples (perf), and 16× gave 30–40 ms less CPU in alternating runs of
 *   the 100 MB APK (64× no more). V8 12 (Node 22) dropped the flag: its tiers count
 *   invocations, with Maglev between the interpreter and TurboFan, and 4× TurboFan's count there
 *   (`--invocation-count-for-turbofan=12000`) saved nothing on Node 24 (the 100 MB APK, five
 *   alternating runs: 1.16 s CPU without, 1.29 s with), so newer V8s get the first flag only.
 *
 * At exit the flags go back to V8's defaults: V8 keys a code cache by a hash of every flag that
 * differs from its default, so a cache the release CLI writes at exit (cli/src/start.ts) after a
 * conversion would otherwise be rejected at the next start and rewritten at every run.
 */
import { monotonicMs } from './clock.js';

/** `--interrupt-budget` exists up to V8 11 (Node 20); a V8 that does not know a flag prints an error. */
const HAS_INTERRUPT_BUDGET = Number(process.versions.v8.split('.')[0]) < 12;
const CONVERSION_FLAGS = HAS_INTERRUPT_BUDGET ? '--semi-space-growth-factor=1 --interrupt-budget=1081344' : '--semi-space-growth-factor=1';
/** V8's defaults for the same flags (`node --v8-options`: the same in V8 11–13, Node 20–24). */
const DEFAULT_FLAGS = HAS_INTERRUPT_BUDGET ? '--semi-space-growth-factor=2 --interrupt-budget=67584' : '--semi-space-growth-factor=2';
let applied: string | undefined;

export function tuneV8ForConversion(): void {
  const v8 = process.getBuiltinModule('node:v8');
  if (applied === undefined) {
    // Before any other 'exit' listener, so the code cache written at exit sees the defaults.
    process.prependOnceListener('exit', () => v8.setFlagsFromString(DEFAULT_FLAGS));
  }
  applied = CONVERSION_FLAGS;
  v8.setFlagsFromString(applied);
}

/**
 * Call right after `new Worker(...)`: sets the flags again once the worker's heap is set up.
 * That set-up, on the worker's thread, puts the growth factor back to 2 for the whole process
 * (V8's minimum-value implication for the flag) a few milliseconds after `new Worker`, and the
 * worker's own first statement sets it to 1 again only after Node's bootstrap, ~35 ms later:
 * in between, the main thread's scavenges doubled its new space once or twice (8–16 MB of peak
 * RSS on the 100 MB APK). The worker's resource limits are filled in just before its heap is
 * set up, so this waits for them (a few ms, bounded), then for the set-up itself (a margin of
 * 1 ms; the reset was seen within 0.2 ms of them), and sets the flags. If the thread comes
 * later than the bound (a starved machine), the worker's own statement still puts them back.
 */
export function keepFlagsAcrossWorkerStart(worker: { readonly resourceLimits?: { maxYoungGenerationSizeMb?: number } }): void {
  if (applied === undefined) return;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = monotonicMs() + WORKER_SETUP_BOUND_MS;
  while (!((worker.resourceLimits?.maxYoungGenerationSizeMb ?? 0) > 0) && monotonicMs() < deadline) Atomics.wait(pause, 0, 0, 0.1);
  Atomics.wait(pause, 0, 0, 1);
  process.getBuiltinModule('node:v8').setFlagsFromString(applied);
}
const WORKER_SETUP_BOUND_MS = 30;

/** The flags a new worker thread must set again once its heap is set up (undefined: none). */
export function v8FlagsToReapply(): string | undefined {
  return applied;
}
