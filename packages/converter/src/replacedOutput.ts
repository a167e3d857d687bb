/**
 * What an `overwrite` run does with the file it replaces: removes it once the input is read and
 * checked, just before the new file is written, rather than letting the final rename drop it.
 * The pages the old file held in the page cache are then free for the new bytes. Written into
 * memory the kernel has not touched for a while instead, 100 MB took 0.7–1.5 s of system time on
 * a virtual machine whose host takes free guest memory back (each new page faults in the host),
 * 0.03–0.08 s into the pages just freed — and the rename's own freeing of the old file's
 * pages (~0.1 s) is gone too. An input refused before that point still leaves the old file
 * in place; a failure while writing leaves no file, as without `overwrite`.
 */
import { rm } from 'node:fs/promises';

/** Removes `output` if it exists (on the thread pool, while the caller goes on); never fails — the final rename reports a path it cannot take. */
export function removeReplacedOutput(output: string): Promise<void> {
  return rm(output, { force: true }).catch(() => undefined);
}
