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

/**
 * Starts a read on the thread pool, then runs LOOPS stretches of 2 ms of busy work, calling
 * `between` before each; returns the stretch during which the read was delivered (LOOPS: after all).
 */
async function stretchWhenReadDelivered(between: () => Promise<void>): Promise<number> {
  let delivered = -1;
  let i = 0;
  const read = readFile(fileURLToPath(import.meta.url)).then(() => void (delivered = i));
  for (; i < LOOPS; i++) {
    await between();
    spin(2);
  }
  await read;
  return delivered;
}

describe('eventLoopTurns', () => {
  it('longSynchronousLoop_threadPoolCallbackRunsBeforeTheLoopEnds', async () => {
    // A read on the thread pool completes within a few ms; only a turn of the event loop delivers it.
    expect(await stretchWhenReadDelivered(eventLoopTurns(5))).to.be.within(0, LOOPS - 1);
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
