/**
 * Keeping V8's young generation at its current size for the rest of the process, for a process
 * that exists to convert (the CLI's `convert --local`): call `keepYoungGenerationSmall()` once,
 * before the conversion.
 *
 * V8 doubles the new space (two semi-spaces) each time enough objects survive a scavenge, up to
 * 2 × 16 MB; converting the resources of a large APK makes it grow all the way: ~25 MB of peak
 * RSS for the 100 MB APK that the heap's live data never needs. Its maximum can only be given
 * when the process starts (`--max-semi-space-size`, which a portable bin cannot pass), but the
 * growth factor is read each time the new space grows (V8's NewSpace::Grow), so setting it to 1
 * stops the growth. Setting up a new isolate's heap (a worker thread's, on that thread) raises the
 * factor back to 2 (V8's Heap::ConfigureHeap): a worker the engine starts sets the flag again as
 * its first statement (`heapFlags()`, handed in its workerData). Not for a long-lived server: the
 * flag is the whole process's, every isolate's.
 */
const KEEP_YOUNG_GENERATION = '--semi-space-growth-factor=1';
let flags: string | undefined;

export function keepYoungGenerationSmall(): void {
  flags = KEEP_YOUNG_GENERATION;
  process.getBuiltinModule('node:v8').setFlagsFromString(flags);
}

/** The V8 flags a worker thread must set again once its heap is set up (undefined: none). */
export function heapFlags(): string | undefined {
  return flags;
}
