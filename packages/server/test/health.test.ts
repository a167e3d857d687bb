/**
 * Liveness under a burst: every connection of the application's pool is taken (as when a hundred
 * uploads arrive at once), and /api/health still answers at once that the process and its
 * database are fine — an orchestrator must not restart a busy server. /api/ready, which asks
 * through the pool, waits its turn.
 */
import { expect } from 'chai';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitFor } from './helpers/conversions.js';

const LOCK = 7_101_001;
const POOL = 2;

describe('liveness while the database pool is busy', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ DATABASE_POOL_MAX: String(POOL) });
  });
  after(async () => {
    await server?.stop();
  });

  it('health_everyPoolConnectionWaitingOnALock_answersOkWhileReadyWaits', async () => {
    const holder = new pg.Client({ connectionString: server.ctx.config.databaseUrl });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [LOCK]);
    // Each query holds one of the pool's connections until the lock is released.
    const blocked = Array.from({ length: POOL }, () => server.ctx.sequelize.query('SELECT pg_advisory_xact_lock(:lock)', { replacements: { lock: LOCK } }));
    try {
      await waitFor(
        async () => {
          const [row] = await holder.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).then((r) => r.rows);
          return Number(row?.n) === POOL ? true : undefined;
        },
        10_000,
        'every pool connection waiting on the lock',
      );
      let readyAnswered = false;
      const ready = fetch(`${server.url}/api/ready`).then((r) => ((readyAnswered = true), r.status));

      // Not a timing figure: a health check that queued for the pool would wait until the lock goes.
      const health = await Promise.race([
        fetch(`${server.url}/api/health`).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string; checks: Record<string, boolean> } })),
        new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 10_000).unref()),
      ]);
      expect(health, 'health waited for the application pool').to.not.equal('still waiting');
      if (health === 'still waiting') return;
      expect(health.status).to.equal(200);
      expect(health.body.status).to.equal('ok');
      expect(health.body.checks).to.deep.equal({ database: true, queue: true });
      expect(readyAnswered, '/api/ready asks through the pool, which is all taken').to.equal(false);

      await holder.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      expect(await ready).to.equal(200);
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      await Promise.all(blocked);
      await holder.end();
    }
    // The pool works again for everything else.
    const [one] = await server.ctx.sequelize.query<{ one: number }>('SELECT 1 AS one', { type: QueryTypes.SELECT });
    expect(one?.one).to.equal(1);
  });
});
