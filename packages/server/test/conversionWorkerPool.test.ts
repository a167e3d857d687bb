/**
 * The engine threads' lifetime: a pool keeps no thread it does not use. A worker idle past the
 * pool's idle time ends, one that has run its number of tasks is replaced by a fresh one (each
 * keeps its V8 heap's high-water mark while it lives), and each worker reports what its heap
 * holds after a task. Real engine, real worker threads, a small generated APK.
 */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { WorkerPool } from '../src/conversions/workerPool.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Resolves once `condition` holds (checked every 50 ms); the test's timeout bounds the wait. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 50));
}

describe('conversion worker pool: threads end when not needed', function () {
  this.timeout(120_000);
  let dir: string;
  let apk: string;
  const pools: WorkerPool[] = [];
  const poolOf = (opts: { idleMs?: number; maxTasks?: number }) => {
    const pool = new WorkerPool({ size: () => 2, logger, ...opts });
    pools.push(pool);
    return pool;
  };
  let outputs = 0;
  const convert = (pool: WorkerPool) => pool.run({ input: apk, output: join(dir, `out-${outputs++}.aab`), options: {} });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aabify-pool-'));
    apk = join(dir, 'app.apk');
    writeFileSync(apk, buildZip(tinyApkEntries()));
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('workerPool_idleWorker_endsAfterIdleTimeAndNextTaskStartsAFreshOne', async () => {
    const pool = poolOf({ idleMs: 300 });
    expect(pool.threads, 'no thread before the first task').to.equal(0);
    const report = await convert(pool);
    expect(report.sizeOut).to.be.greaterThan(0);
    await until(() => pool.threads === 0);
    // The next task is not refused for want of a thread.
    expect((await convert(pool)).sizeOut).to.equal(report.sizeOut);
  });

  it('workerPool_workerBusyAgainWithinIdleTime_isReused', async () => {
    const pool = poolOf({ idleMs: 60_000 });
    await convert(pool);
    await convert(pool);
    expect(pool.threads).to.equal(1);
  });

  it('workerPool_workerRanMaxTasks_replacedByAFreshOne', async () => {
    const pool = poolOf({ idleMs: 60_000, maxTasks: 2 });
    await convert(pool);
    expect(pool.threads, 'after its first task the worker stays').to.equal(1);
    await convert(pool);
    expect(pool.threads, 'after its second task the worker is gone').to.equal(0);
    await convert(pool);
    expect(pool.threads, 'a fresh worker ran the third').to.equal(1);
  });

  it('workerPool_afterATask_reportsTheWorkersHeap', async () => {
    const pool = poolOf({ idleMs: 60_000 });
    expect(pool.memory.heapTotal).to.equal(0);
    await convert(pool);
    await until(() => pool.memory.heapTotal > 0);
    const m = pool.memory;
    expect(m.heapUsed).to.be.greaterThan(0).and.at.most(m.heapTotal);
  });
});
