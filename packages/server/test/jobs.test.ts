import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { announceJobs, closeJobQueue, createJobQueue, ensureQueueSchema, isQueueRunning, type JobQueue } from '../src/jobs/queue.js';
import { createTestDatabase } from './helpers/postgres.js';

const worker = fileURLToPath(new URL('./fixtures/hangingWorker.ts', import.meta.url));

function waitFor<T>(fn: () => T | undefined, ms = 20000): Promise<T> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const tick = () => {
      const v = fn();
      if (v !== undefined) return resolve(v);
      if (Date.now() - start > ms) return reject(new Error('timed out'));
      setTimeout(tick, 50);
    };
    tick();
  });
}

describe('job queue (Agenda on Postgres)', () => {
  const queues: JobQueue[] = [];
  afterEach(async () => {
    for (const q of queues.splice(0)) await closeJobQueue(q, 1000).catch(() => undefined);
  });

  it('job_enqueued_isLockedRunAndFinished', async () => {
    const url = await createTestDatabase();
    const queue = createJobQueue({ databaseUrl: url, name: 'a', processEvery: 100 });
    queues.push(queue);
    await ensureQueueSchema(queue); // the server does this under its start-up lock
    const seen: string[] = [];
    let lockedWhileRunning: boolean | undefined;
    queue.define('echo', async (job) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const row = await client.query('SELECT locked_at FROM agenda_jobs WHERE id = $1', [job.attrs._id]);
      await client.end();
      lockedWhileRunning = row.rows[0]?.locked_at !== null;
      seen.push((job.attrs.data as { word: string }).word);
    });
    await queue.start();
    expect(isQueueRunning(queue)).to.equal(true);
    await queue.now('echo', { word: 'olá' });
    await waitFor(() => (seen.length ? seen : undefined));
    expect(seen).to.deep.equal(['olá']);
    expect(lockedWhileRunning).to.equal(true);
    // Agenda records the finish just after the handler returns: poll until it has.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const deadline = Date.now() + 10000;
      for (;;) {
        const rows = await client.query("SELECT last_finished_at, locked_at FROM agenda_jobs WHERE name = 'echo'");
        const row = rows.rows[0];
        if (!row) break; // removed on completion: finished
        if (row.last_finished_at) {
          expect(row.locked_at).to.equal(null);
          break;
        }
        if (Date.now() > deadline) throw new Error('job never recorded as finished');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await client.end();
    }
  });

  it('job_savedByAWebProcess_wakesTheProcessorAtOnce_andItsRunSendsNoStateMessages', async function () {
    this.timeout(30000);
    const url = await createTestDatabase();
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (m) => heard.push(m.channel));
    // Agenda's channels: new jobs on "agenda:jobs", run states on "agenda:jobs:state".
    await listener.query('LISTEN "agenda:jobs"');
    await listener.query('LISTEN "agenda:jobs:state"');
    try {
      // The processor looks for due jobs once a minute: only the wake-up can start this one sooner.
      const processor = createJobQueue({ databaseUrl: url, name: 'processor', processEvery: 60_000 });
      const producer = createJobQueue({ databaseUrl: url, name: 'producer' });
      queues.push(processor, producer);
      await ensureQueueSchema(processor);
      let ran = 0;
      processor.define('wake', async () => void ran++);
      await processor.start();
      // As a web process: saves jobs, runs none.
      await announceJobs(producer);
      producer.define('wake', async () => undefined);
      await producer.now('wake', {});
      await waitFor(() => (ran === 1 ? true : undefined), 15000);
      // What Agenda publishes after a run's end reaches the listener within its round trip.
      await listener.query('SELECT 1');
      await new Promise((r) => setTimeout(r, 500));
      expect(heard.filter((c) => c === 'agenda:jobs').length, 'wake-ups').to.be.greaterThan(0);
      expect(heard.filter((c) => c === 'agenda:jobs:state'), 'run states sent').to.deep.equal([]);
    } finally {
      await listener.end();
    }
  });

  it('job_lockedByDeadProcess_isRunAgainAfterLockLifetime', async function () {
    this.timeout(60000);
    const url = await createTestDatabase();
    const producer = createJobQueue({ databaseUrl: url, name: 'producer' });
    queues.push(producer);
    await ensureQueueSchema(producer);
    await producer.ready;
    producer.define('hang', async () => undefined);
    await producer.now('hang', { attempt: 1 });

    const child = spawn(process.execPath, ['--import', 'tsx', worker, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve());
      child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    });
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const rescuer = createJobQueue({ databaseUrl: url, name: 'rescuer', processEvery: 200, lockLifetimeMs: 1500 });
    queues.push(rescuer);
    let reran = false;
    rescuer.define('hang', async () => {
      reran = true;
    });
    await rescuer.start();
    await waitFor(() => (reran ? true : undefined), 30000);
    expect(reran).to.equal(true);
  });
});
