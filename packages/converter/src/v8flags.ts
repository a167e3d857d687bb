/**
 * V8 flags for a process that exists to run one conversion (the CLI's `convert --local`): call
 * `tuneV8ForConversion()` once, before converting. They can only be set at run time because V8
 * reads them when it acts on them (a bin cannot pass node flags portably; see bench/README.md,
 * "Third pass: the engine"). Not for a long-lived server: they are the whole process's.
 *
 * - `--semi-space-growth-factor=1`: V8 doubles the new space (two semi-spaces) each time enough
 *   objects survive a scavenge, up to 2 × 16 MB, and converting a large APK's resources makes it
 *   grow all the way: ~25 MB of peak RSS that the heap's live data never needs. Its maximum can
 *   only be given at start (`--max-semi-space-size`), but the growth factor is read each time the
 *   new space grows (V8's NewSpace::Grow): 1 stops the growth. Setting up a new isolate's heap (a
 *   worker thread's, on that thread) raises the factor back to 2 (seen; most likely
 *   Heap::ConfigureHeap's clamp), so a worker the engine starts sets the flags again as its
 *   first statement (`v8FlagsToReapply()`, handed in its workerData).
 * - `--interrupt-budget=270336` (4 × the default): how much a function must run before V8 tiers
 *   it up. A conversion runs much of its code hot for a moment only (each parser and encoder
 *   over one table); TurboFan compiled ~140 functions for the 100 MB APK, ~0.3 s of CPU on the
 *   other core. With 4× the budget, only the long-running loops get there: ~0.15–0.2 s less CPU,
 *   the main thread's time unchanged.
 *
 * At exit the flags go back to V8's defaults: V8 keys a code cache by a hash of every flag that
 * differs from its default, so a cache the release CLI writes at exit (cli/src/start.ts) after a
 * conversion would otherwise be rejected at the next start and rewritten at every run.
 */
const CONVERSION_FLAGS = '--semi-space-growth-factor=1 --interrupt-budget=270336';
/** V8's defaults for the same flags (`node --v8-options`, V8 11–12 in Node 20–22). */
const DEFAULT_FLAGS = '--semi-space-growth-factor=2 --interrupt-budget=67584';
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

/** The flags a new worker thread must set again once its heap is set up (undefined: none). */
export function v8FlagsToReapply(): string | undefined {
  return applied;
}
