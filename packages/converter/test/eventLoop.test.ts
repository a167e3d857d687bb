import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { eventLoopTurns } from '../src/eventLoop.js';

/** Busy work on this thread for `ms`, as a resource conversion's synchronous stretches are. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const LOOPS = 40;
/** Enough stretches for a read to finish on a machine whose cores other work keeps busy (10 s). */
const MANY_LOOPS = 5000;

/**
 * Starts a read on the thread pool, then runs up to `loops` stretches of 2 ms of busy work, calling
 * `between` before each (and stopping once the read was delivered); returns the stretch during
 * which it was delivered (`loops`: only after all of them).
 */
async function stretchWhenReadDelivered(between: () => Promise<void>, loops = LOOPS): Promise<number> {
  let delivered = -1;
  let i = 0;
  const read = readFile(fileURLToPath(import.meta.url)).then(() => void (delivered = i));
  for (; i < loops && delivered < 0; i++) {
    await between();
    spin(2);
  }
  await read;
  return delivered;
}

describe('eventLoopTurns', () => {
  it('longSynchronousLoop_threadPoolCallbackRunsBeforeTheLoopEnds', async () => {
    // A read on the thread pool completes within a few ms (more on a busy machine); only a turn of
    // the event loop delivers it, and the turns deliver it while the loop still runs.
    expect(await stretchWhenReadDelivered(eventLoopTurns(5), MANY_LOOPS)).to.be.within(0, MANY_LOOPS - 1);
  });

  it('withoutTurns_theSameCallbackWaitsForTheEnd', async () => {
    // What the turns are for: awaiting resolved promises alone never lets I/O in.
    expect(await stretchWhenReadDelivered(() => Promise.resolve())).to.equal(LOOPS);
  });

  it('quickWork_noTurnTaken', async () => {
    let immediate = false;
    setImmediate(() => (immediate = true));
    const turn = eventLoopTurns(1000);
    for (let i = 0; i < 100; i++) await turn();
    expect(immediate).to.equal(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(immediate).to.equal(true);
  });
});
