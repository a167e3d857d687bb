/**
 * The principal cache (users, API tokens) and the conversion state cache across two servers
 * on one database: what one process changes, the other refuses or shows at once; repeated
 * reads cost no query; a lost LISTEN connection never leaves a stale entry behind.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createTestDatabase } from './helpers/postgres.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildAdmin, buildCreditUser, buildSubscriber, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { waitFor } from './helpers/conversions.js';
import { NotifiedCache, markIo } from '../src/db/notifiedCache.js';
import { queriesDuring } from './helpers/queries.js';
import { INVALIDATION_CHANNEL } from '../src/db/notifications.js';
import { reserveCredit, settleCredit } from '../src/conversions/credits.js';

describe('caches invalidated across processes (principals, conversion state)', function () {
  this.timeout(120000);
  let a: TestServer;
  let b: TestServer;
  let databaseUrl: string;

  before(async () => {
    databaseUrl = await createTestDatabase();
    a = await startTestServer({ ROLE: 'all' }, { databaseUrl });
    b = await startTestServer({ ROLE: 'web' }, { databaseUrl });
  });
  after(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
  });

  /** SQL statements server `s` runs on `tables` while fn runs. */
  it('statusReads_repeated_noQueryOnceCached', async () => {
    const user = await buildSubscriber(a);
    const c = await buildConversion(a, user, { status: 'completed', progress: 100 });
    const token = tokenFor(b, user);
    expect((await api(b).get(`/conversion/status/${c.id}`, token)).status).to.equal(200);
    const sql = await queriesDuring(b, /"(users|conversions|api_tokens)"/, async () => {
      for (let i = 0; i < 20; i++) expect((await api(b).get(`/conversion/status/${c.id}`, token)).status).to.equal(200);
    });
    expect(sql).to.deep.equal([]);
    const created = await api(b).post<{ token: string }>('/auth/tokens', { name: 'ci' }, token);
    expect((await api(b).get(`/conversion/status/${c.id}`, created.body.token)).status).to.equal(200);
    const viaApiToken = await queriesDuring(b, /"(users|conversions|api_tokens)"/, async () => {
      for (let i = 0; i < 20; i++) expect((await api(b).get(`/conversion/status/${c.id}`, created.body.token)).status).to.equal(200);
    });
    expect(viaApiToken).to.deep.equal([]);
  });

  it('apiTokenRevokedOnA_refusedOnBAtOnce', async () => {
    const user = await buildSubscriber(a);
    const session = tokenFor(a, user);
    for (let round = 0; round < 5; round++) {
      const created = await api(a).post<{ token: string; id: string }>('/auth/tokens', { name: `ci-${round}` }, session);
      expect(created.status).to.equal(201);
      // Cached on B (twice: the second is a hit).
      for (let i = 0; i < 2; i++) expect((await api(b).get('/auth/me', created.body.token)).status).to.equal(200);
      expect((await api(a).delete(`/auth/tokens/${created.body.id}`, session)).status).to.equal(204);
      const after = await api(b).get('/auth/me', created.body.token);
      expect(after.status, `round ${round}`).to.equal(401);
      expect(after.body.code).to.equal('TOKEN_INVALID');
    }
  });

  it('userDeactivatedOnA_sessionAndApiTokenRefusedOnBAtOnce', async () => {
    const admin = await buildAdmin(a);
    const user = await buildSubscriber(a);
    const session = tokenFor(a, user);
    const apiToken = (await api(a).post<{ token: string }>('/auth/tokens', { name: 'ci' }, session)).body.token;
    for (const t of [session, apiToken, session, apiToken]) expect((await api(b).get('/auth/me', t)).status).to.equal(200);
    expect((await api(a).patch(`/admin/users/${user.id}/toggle-status`, {}, tokenFor(a, admin))).status).to.equal(200);
    for (const t of [session, apiToken]) {
      const res = await api(b).get('/auth/me', t);
      expect(res.status).to.equal(401);
      // Deactivation also ends the sessions (tokenVersion), so a session may read TOKEN_INVALID.
      expect(res.body.code).to.be.oneOf(t === apiToken ? ['ACCOUNT_DISABLED'] : ['ACCOUNT_DISABLED', 'TOKEN_INVALID']);
    }
  });

  it('passwordChangedOnA_olderSessionRefusedOnBAtOnce', async () => {
    const user = await buildSubscriber(a);
    const old = tokenFor(a, user);
    for (let i = 0; i < 2; i++) expect((await api(b).get('/auth/me', old)).status).to.equal(200);
    const changed = await api(a).patch<{ token: string }>('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'outra-senha-forte-456', confirmPassword: 'outra-senha-forte-456' }, old);
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect((await api(b).get('/auth/me', old)).status).to.equal(401);
    expect((await api(b).get('/auth/me', changed.body.token)).status).to.equal(200);
  });

  it('adminDemotedOnA_adminRoutesRefusedOnBAtOnce', async () => {
    const root = await buildAdmin(a);
    const other = await buildAdmin(a);
    const token = tokenFor(a, other);
    for (let i = 0; i < 2; i++) expect((await api(b).get('/admin/users', token)).status).to.equal(200);
    expect((await api(a).patch(`/admin/users/${other.id}/demote`, {}, tokenFor(a, root))).status).to.equal(200);
    expect((await api(b).get('/admin/users', token)).status).to.be.oneOf([401, 403]);
  });

  it('statusChangedByOneProcess_readOnEitherNeverStale', async () => {
    const user = await buildSubscriber(a);
    const token = tokenFor(a, user);
    // Run by a live instance (B's name: it beats). A runs conversions too: an ownerless
    // 'processing' row is an orphan to it, which its periodic job check queues and its runner
    // resumes at progress 5 — a real write in the middle of the loop on a slow machine (CI saw
    // "progress 25 on A: 5"), not a stale read.
    const c = await buildConversion(a, user, { status: 'processing', progress: 0, processingStartedAt: new Date(), workerName: b.ctx.instance.id });
    const row = await a.ctx.models.Conversion.findByPk(c.id);
    for (let progress = 5; progress <= 100; progress += 5) {
      // Both processes hold the previous state now.
      for (const s of [a, b]) expect((await api(s).get<{ progress: number }>(`/conversion/status/${c.id}`, token)).body.progress).to.equal(progress - 5);
      // As the runner writes it; then the point every answering writer waits for.
      if (progress < 100) await row!.update({ progress });
      else await row!.update({ progress, status: 'completed', completedAt: new Date() });
      await a.ctx.notifier.sync();
      for (const s of [b, a]) {
        const read = await api(s).get<{ progress: number; status: string }>(`/conversion/status/${c.id}`, token);
        expect(read.body.progress, `progress ${progress} on ${s === a ? 'A' : 'B'}`).to.equal(progress);
      }
    }
    expect((await api(b).get<{ status: string }>(`/conversion/status/${c.id}`, token)).body.status).to.equal('completed');
  });

  it('listenConnectionLost_nothingServedFromMemoryUntilBack_thenCachesAgain', async () => {
    const user = await buildSubscriber(a);
    const token = tokenFor(a, user);
    const c = await buildConversion(a, user, { status: 'queued', queuedAt: new Date() });
    for (let i = 0; i < 2; i++) expect((await api(b).get(`/conversion/status/${c.id}`, token)).status).to.equal(200);
    // B's LISTEN connection dies; a change committed meanwhile is never announced to B.
    const [rows] = await a.ctx.sequelize.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE '%${b.ctx.instance.short}-notifications'`,
    );
    expect(rows).to.have.length(1);
    await waitFor(() => (b.ctx.notifier.listening ? undefined : true), 10000, "B's notifier to notice");
    await a.ctx.models.Conversion.update({ status: 'cancelled', cancelledAt: new Date() }, { where: { id: c.id } });
    expect((await api(b).get<{ status: string }>(`/conversion/status/${c.id}`, token)).body.status).to.equal('cancelled');
    await a.ctx.models.User.update({ isActive: false }, { where: { id: user.id } });
    expect((await api(b).get('/auth/me', token)).status).to.equal(401);
    await a.ctx.models.User.update({ isActive: true }, { where: { id: user.id } });
    // Back: caching again, and changes announced again.
    await waitFor(() => (b.ctx.notifier.listening ? true : undefined), 10000, "B's notifier to reconnect");
    for (let i = 0; i < 2; i++) expect((await api(b).get('/auth/me', token)).status).to.equal(200);
    const sql = await queriesDuring(b, /"users"/, async () => {
      expect((await api(b).get('/auth/me', token)).status).to.equal(200);
    });
    expect(sql).to.deep.equal([]);
    await a.ctx.models.User.update({ isActive: false }, { where: { id: user.id } });
    await a.ctx.notifier.sync();
    expect((await api(b).get('/auth/me', token)).status).to.equal(401);
  });

  it('userCountersMoved_bothProcessesShowTheNewCreditsWithoutReadingTheUserAgain', async () => {
    const user = await buildCreditUser(a, 5);
    const token = tokenFor(a, user);
    const c = await buildConversion(a, user, { status: 'queued', queuedAt: new Date() });
    const credits = async (s: TestServer) => (await api(s).get<{ currentPlan: { credits: number } }>('/auth/me', token)).body.currentPlan.credits;
    const cached = async (s: TestServer) => {
      const u = await s.ctx.auth.principals.userById(user.id);
      return { credits: u!.credits, reserved: u!.creditsReserved, conversions: u!.conversionsCount };
    };
    /** What `fn` read of the users table on either process. */
    const userReads = async (fn: () => Promise<void>) => {
      const [onA, onB] = [[] as string[], [] as string[]];
      onA.push(
        ...(await queriesDuring(a, /"users"/, async () => {
          onB.push(...(await queriesDuring(b, /"users"/, fn)));
        })),
      );
      return [...onA, ...onB];
    };
    for (const s of [a, b]) for (let i = 0; i < 2; i++) expect(await credits(s)).to.equal(5);

    // A submission on A reserves a credit; A answers from memory at once (patched at commit), B once the change is announced.
    const reads = await userReads(async () => {
      await a.ctx.sequelize.transaction(async (transaction) => {
        const locked = await a.ctx.models.User.findByPk(user.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
        c.creditState = await reserveCredit(locked!, transaction);
        await c.save({ transaction });
      });
      expect(await credits(a)).to.equal(4);
      await a.ctx.notifier.sync();
      expect(await credits(b)).to.equal(4);
      expect(await cached(b)).to.deep.equal({ credits: 4, reserved: 1, conversions: 0 });
      // The conversion completes: the credit is spent and counted.
      await a.ctx.sequelize.transaction((transaction) => settleCredit(a.ctx.models, c, 'spent', transaction));
      await a.ctx.notifier.sync();
      for (const s of [a, b]) expect(await cached(s)).to.deep.equal({ credits: 4, reserved: 0, conversions: 1 });
    });
    // Only A's own statements on the row (the lock and the two updates): nothing read the user back.
    expect(reads.filter((sql) => sql.startsWith('SELECT') && !sql.includes('FOR NO KEY UPDATE'))).to.deep.equal([]);

    // A counter moved by a statement no hook sees (another process, a script): patched on both from the announcement.
    await a.ctx.sequelize.query(`UPDATE users SET credits = credits + 2 WHERE id = '${user.id}'`);
    await a.ctx.notifier.sync();
    expect(await userReads(async () => {
      for (const s of [a, b]) expect(await credits(s)).to.equal(6);
    })).to.deep.equal([]);

    // Counters with anything else in one change: dropped, read again, shown as committed.
    await a.ctx.models.User.update({ credits: 9, name: 'Outro Nome' }, { where: { id: user.id } });
    await a.ctx.notifier.sync();
    for (const s of [a, b]) {
      const me = await api(s).get<{ name: string; currentPlan: { credits: number } }>('/auth/me', token);
      expect([me.body.name, me.body.currentPlan.credits]).to.deep.equal(['Outro Nome', 9]);
    }
    // And a deactivation right after counter patches still refuses at once.
    await a.ctx.sequelize.query(`UPDATE users SET credits = credits - 1 WHERE id = '${user.id}'`);
    await a.ctx.models.User.update({ isActive: false }, { where: { id: user.id } });
    await a.ctx.notifier.sync();
    for (const s of [a, b]) expect((await api(s).get('/auth/me', token)).status).to.equal(401);
  });

  it('notifiedCache_patches_onlyNewerVersionsApply_loadOverlappingAPatchNotStored_unreadableDropsAll', async () => {
    type Row = { version: number; n: number };
    const cache = new NotifiedCache<Row>(a.ctx.notifier, {
      topic: 'test-patched',
      max: 10,
      maxAgeMs: 60_000,
      patches: {
        topic: 'test-patched-counts',
        parse: (payload) => {
          const [key, version, n] = payload.split(':');
          if (!key || !Number.isSafeInteger(Number(version)) || !Number.isSafeInteger(Number(n))) return undefined;
          return { key, version: Number(version), apply: (row) => ({ ...row, version: Number(version), n: Number(n) }) };
        },
        versionOf: (row) => row.version,
      },
    });
    const announce = async (payload: string) => {
      await a.ctx.notifier.notify('test-patched-counts', payload);
      await a.ctx.notifier.sync();
    };
    const never = async (): Promise<Row> => ({ version: -1, n: -1 });
    await cache.get('x', async () => ({ version: 3, n: 30 }));
    await announce('x:4:40');
    expect(await cache.get('x', never)).to.deep.equal({ version: 4, n: 40 });
    // Older or equal versions (a state this entry already went past) change nothing.
    await announce('x:2:20');
    await announce('x:4:41');
    expect(await cache.get('x', never)).to.deep.equal({ version: 4, n: 40 });
    // A patch of a row not in memory stores nothing.
    await announce('y:9:90');
    expect(await cache.get('y', async () => ({ version: 9, n: 99 }))).to.deep.equal({ version: 9, n: 99 });
    // A patch while the row loads: that load may have read the row before the change.
    const overlapped = await cache.get('z', async () => (await announce('z:2:20'), { version: 1, n: 10 }));
    expect(overlapped).to.deep.equal({ version: 1, n: 10 });
    expect(await cache.get('z', async () => ({ version: 2, n: 20 }))).to.deep.equal({ version: 2, n: 20 });
    expect(await cache.get('z', never)).to.deep.equal({ version: 2, n: 20 });
    // A payload it cannot read: nothing in memory is trusted.
    await announce('not a patch');
    expect(cache.size).to.equal(0);
  });

  it('notifiedCache_boundedLeastRecentlyUsedFirst_loadOverlappingAChangeOfItsRowNotStored', async () => {
    const cache = new NotifiedCache<number>(a.ctx.notifier, { topic: 'test-cache', max: 3, maxAgeMs: 60_000 });
    for (const k of ['1', '2', '3']) await cache.get(k, async () => Number(k));
    await cache.get('1', async () => -1); // a hit: '1' is now the most recent
    await cache.get('4', async () => 4); // '2' goes
    expect(cache.size).to.equal(3);
    expect(await cache.get('2', async () => 20)).to.equal(20);
    expect(await cache.get('1', async () => -1)).to.equal(1);
    // A change announced while a load is under way: that load may have read the old row.
    const stale = await cache.get('5', async () => {
      await a.ctx.notifier.notify('test-cache', '5');
      await a.ctx.notifier.sync();
      return 5;
    });
    expect(stale).to.equal(5);
    expect(await cache.get('5', async () => 50)).to.equal(50);
    // A change to another row meanwhile does not matter: this load is kept (under a burst of
    // writes to other conversions, a polled one still costs no query).
    const kept = await cache.get('6', async () => {
      await a.ctx.notifier.notify('test-cache', '1');
      await a.ctx.notifier.sync();
      return 6;
    });
    expect(kept).to.equal(6);
    expect(await cache.get('6', async () => 60)).to.equal(6);
    // Two loads of one row at once, the row changed while both run: neither is kept.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = cache.get('7', async () => (await gate, 7));
    const second = cache.get('7', async () => (await gate, 7));
    await a.ctx.notifier.notify('test-cache', '7');
    await a.ctx.notifier.sync();
    release();
    expect(await Promise.all([first, second])).to.deep.equal([7, 7]);
    expect(await cache.get('7', async () => 70)).to.equal(70);
    // Everything dropped while a load runs (the LISTEN connection came back): not kept either.
    const cleared = await cache.get('8', async () => (cache.clear(), 8));
    expect(cleared).to.equal(8);
    expect(await cache.get('8', async () => 80)).to.equal(80);
  });

  it('notifiedCache_requestsFirstHitSeesAChangeReceivedBeforeIt_laterHitsOfTheRequestAnswerWithoutAnotherTurn', async () => {
    const cache = new NotifiedCache<number>(a.ctx.notifier, { topic: 'test-marked', max: 10, maxAgeMs: 60_000 });
    await cache.get('1', async () => 1);
    await cache.get('2', async () => 2);
    // Another process changes row 1 while this event loop is blocked (the call is synchronous):
    // its notification waits unread in this process's socket when a request arrives.
    const message = JSON.stringify({ topic: 'test-marked', payload: '1' });
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import pg from 'pg'; const c = new pg.Client(process.env.URL); await c.connect(); await c.query("SELECT pg_notify($1, $2)", [process.env.CHANNEL, process.env.MESSAGE]); await c.end();`,
      ],
      { env: { ...process.env, URL: databaseUrl, CHANNEL: INVALIDATION_CHANNEL, MESSAGE: message }, cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    const busyUntil = Date.now() + 300;
    while (Date.now() < busyUntil) {
      // Time for Postgres to deliver it (a's event loop still blocked).
    }
    const request = markIo();
    expect(await cache.get('1', async () => 10, request)).to.equal(10);
    // The same request's next hit (a status read's row after its session and user): no other turn.
    let turned = false;
    setImmediate(() => (turned = true));
    expect(await cache.get('2', async () => -1, request)).to.equal(2);
    expect(turned, 'the second hit of the request waited a turn').to.equal(false);
    // A lookup that is not a request's waits as before.
    setImmediate(() => (turned = true));
    expect(await cache.get('2', async () => -1)).to.equal(2);
    expect(turned).to.equal(true);
  });
});
