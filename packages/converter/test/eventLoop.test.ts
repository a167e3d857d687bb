import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { eventLoopTurns } from '../src/eventLoop.js';

/** Busy work on this thread for `ms`, as a resource conversion's synchronous stretches are. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('eventLoopTurns', () => {
  it('longSynchronousLoop_threadPoolCallbackRunsBeforeTheLoopEnds', async () => {
    // A read on the thread pool completes within a few ms; only a turn of the event loop delivers it.
    let delivered = -1;
    const loops = 40;
    const read = readFile(fileURLToPath(import.meta.url)).then(() => undefined);
    let i = 0;
    void read.then(() => (delivered = i));
    const turn = eventLoopTurns(5);
    for (; i < loops; i++) {
      await turn();
      spin(2);
    }
    await read;
    expect(delivered).to.be.within(0, loops - 1);
  });

  it('withoutTurns_theSameCallbackWaitsForTheEnd', async () => {
    // What the turns are for: awaiting resolved promises alone never lets I/O in.
    let delivered = -1;
    const loops = 40;
    const read = readFile(fileURLToPath(import.meta.url)).then(() => undefined);
    let i = 0;
    void read.then(() => (delivered = i));
    for (; i < loops; i++) {
      await Promise.resolve();
      spin(2);
    }
    await read;
    expect(delivered).to.equal(loops);
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
