/**
 * V8's memory saver mode for the server process, where V8 has it (V8 13, Node 24, the image's
 * line). From V8 13 a heap keeps the pages its collections free in a pool, resident, for its
 * next allocations, and gives them back only at a memory-reducing collection, which V8 schedules
 * when the process goes idle: a busy server never gets one, and each thread holds its heap's
 * high-water mark. In memory saver mode V8's full collections reduce memory (pool given back,
 * pages compacted, heaps kept smaller). Under 20 customers × 5 conversions at once on Node 24 the
 * server peaked at 254–285 MB instead of 295–321 MB, and held 182–203 MB once idle instead of
 * 277 MB; the price is ~10 % more CPU per conversion and the main thread's full collections
 * pausing up to ~37 ms instead of ~18 ms (bench/README.md). Node 20 and 22 have no such mode
 * (their peaks were 255–298 MB without it); `--optimize-for-size`, which would do the same
 * there, also changes the compiler and cost Node 22 a fifth of its throughput.
 *
 * Set at run time, before the engine threads start: V8 reads the mode whenever it decides how to
 * collect, so it holds for the main thread and every thread started after. A mode the operator
 * gave on the command line (`node --no-memory-saver-mode …`) is left as given.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's major version from which the flag exists (`node --v8-options`: V8 13.6 has it, 12.4 does not). */
const FIRST_V8_WITH_MEMORY_SAVER = 13;

/**
 * Turns memory saver mode on if this V8 has it and the command line did not set it; answers
 * whether it is now on because of this call.
 */
export function enableMemorySaverMode(v8Version: string = process.versions.v8, execArgv: readonly string[] = process.execArgv): boolean {
  if (Number(v8Version.split('.')[0]) < FIRST_V8_WITH_MEMORY_SAVER) return false;
  if (execArgv.some((arg) => /^--(no-)?memory[-_]saver[-_]mode\b/.test(arg))) return false;
  setFlagsFromString('--memory-saver-mode');
  return true;
}
