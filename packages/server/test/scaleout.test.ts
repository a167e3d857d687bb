/**
 * Several servers on one database, in this process (the multi-process topology is
 * multiprocess.test.ts): start-up together under the lock, a schema newer than the code,
 * settings across processes, secret rotation, connection budget, readiness and metrics.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import { startTestServer, TEST_SECRETS, type TestServer } from './helpers/server.js';
import { createTestDatabase } from './helpers/postgres.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildSubscriber, buildUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, waitFor, waitForStatus } from './helpers/conversions.js';
import { signSessionToken, sessionKey } from '../src/accounts/tokens.js';
import { encryptJson, decryptJson, isEncryptedValue } from '../src/settings/crypto.js';
import { keystoreAad, signingKeyFor } from '../src/keystores/service.js';
import { connectionBudget } from '../src/db/connections.js';
import { buildConversion } from './helpers/adminFactories.js';

const KEY_B = randomBytes(32).toString('hex');

/** Holds `count` connections of the server's application pool (or of `pool`, a read lane) in open transactions until the returned function is called. */
async function holdConnections(server: TestServer, count: number, pool: Sequelize = server.ctx.sequelize): Promise<() => Promise<void>> {
  const release: Array<() => void> = [];
  const held = Array.from({ length: count }, () =>
    pool.transaction(async (t) => {
      await pool.query('SELECT 1', { transaction: t });
      await new Promise<void>((r) => release.push(r));
    }),
  );
  const releaseAll = async () => {
    for (const r of release) r();
    await Promise.all(held);
  };
  // Never left holding on failure: the server could not stop.
  await waitFor(() => release.length === count, 10000).catch(async (err: unknown) => {
    await Promise.race([releaseAll(), new Promise((r) => setTimeout(r, 1000))]);
    throw err;
  });
  return releaseAll;
}
const base64Of = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('scale-out: servers sharing one database', function () {
  this.timeout(120000);
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>, databaseUrl: string) => {
    const s = await startTestServer(env, { databaseUrl });
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.allSettled(servers.splice(0).map((s) => s.stop()));
  });

  it('startTogether_fourServersOnAnEmptyDatabase_allStartAndMigrateOnce', async () => {
    const databaseUrl = await createTestDatabase();
    const roles = ['web', 'web', 'worker', 'worker'];
    const started = await Promise.allSettled(roles.map((ROLE) => start({ ROLE }, databaseUrl)));
    expect(started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).to.deep.equal([]);
    const [meta] = await servers[0]!.ctx.sequelize.query<{ n: string; d: string }>('SELECT count(*) AS n, count(DISTINCT name) AS d FROM "SequelizeMeta"', { type: QueryTypes.SELECT });
    expect(meta!.n).to.equal(meta!.d);
  });

  it('schemaNewerThanCode_startRefusedWithOneClearLine', async () => {
    const databaseUrl = await createTestDatabase();
    const first = await start({}, databaseUrl);
    await first.ctx.sequelize.query(`INSERT INTO "SequelizeMeta" (name) VALUES ('9999-from-the-future')`);
    let err: Error | undefined;
    await start({ ROLE: 'worker' }, databaseUrl).catch((e: Error) => (err = e));
    expect(err?.message).to.contain('9999-from-the-future').and.contain('atualize este processo');
    expect(err!.message).to.not.contain('\n');
  });

  it('settingChangedOnOneServer_appliesOnTheOtherWithinSeconds', async () => {
    const databaseUrl = await createTestDatabase();
    const [a, b] = [await start({ ROLE: 'web' }, databaseUrl), await start({ ROLE: 'web' }, databaseUrl)];
    expect(await b.ctx.settings.get('conversions.maxConcurrent')).to.equal(3); // cached on B now
    const admin = await buildAdmin(a);
    const put = await api(a).put('/admin/config/conversions.maxConcurrent', { value: 7 }, tokenFor(a, admin));
    expect(put.status).to.equal(200);
    // B's cache lives a minute; only the notification can bring the change this soon.
    await waitFor(async () => ((await b.ctx.settings.get('conversions.maxConcurrent')) === 7 ? true : undefined), 10000, 'the setting on B');
    await a.ctx.settings.set('logging.level', 'debug');
    await waitFor(() => (b.ctx.logger.level === 'debug' ? true : undefined), 10000, 'the log level on B');
  });

  it('encryptionKeyRotation_previousKeyStillOpens_startReencryptsSettingsAndKeystores', async () => {
    const databaseUrl = await createTestDatabase();
    const old = await start({}, databaseUrl);
    await old.ctx.settings.set('payments.mercadopago.accessToken', 'APP_USR-rotation-0001');
    const user = await buildUser(old);
    const oldKey = old.ctx.secrets.encryptionKey;
    await old.ctx.models.UserKeystore.create({
      userId: user.id,
      secret: encryptJson({ keystore: Buffer.from('keystore-bytes').toString('base64'), storePassword: 'senha' }, oldKey, keystoreAad(user.id)),
      alias: 'upload',
      format: 'PKCS12',
      keyAlgorithm: 'RSA',
      keySize: 2048,
      subject: 'CN=Teste',
      certificateSha1: 'aa',
      certificateSha256: 'bb',
      notAfter: new Date(Date.now() + 86_400_000),
    });
    await old.stop();
    servers.splice(0);

    // Without the previous key, the secret reads as unset (the rotation must give it).
    const lost = await start({ ENCRYPTION_KEY: KEY_B }, databaseUrl);
    expect(await lost.ctx.settings.get('payments.mercadopago.accessToken')).to.equal(null);
    await lost.stop();
    servers.splice(0);

    const rotated = await start({ ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: TEST_SECRETS.ENCRYPTION_KEY }, databaseUrl);
    expect(await rotated.ctx.settings.get('payments.mercadopago.accessToken')).to.equal('APP_USR-rotation-0001');
    expect(Buffer.from((await signingKeyFor(rotated.ctx, user.id)).keystore).toString()).to.equal('keystore-bytes');
    // Re-encrypted at start: the new key alone opens both now.
    const [setting] = await rotated.ctx.sequelize.query<{ value: unknown }>(`SELECT value FROM settings WHERE key = 'payments.mercadopago.accessToken'`, { type: QueryTypes.SELECT });
    expect(isEncryptedValue(setting!.value) && decryptJson(setting!.value, base64Of(KEY_B), 'payments.mercadopago.accessToken')).to.equal('APP_USR-rotation-0001');
    const ks = await rotated.ctx.models.UserKeystore.findByPk(user.id);
    expect(() => decryptJson(ks!.secret, base64Of(KEY_B), keystoreAad(user.id))).to.not.throw();
  });

  it('jwtRotation_previousSecretAcceptedOnlyWhileGiven', async () => {
    const databaseUrl = await createTestDatabase();
    const oldSecret = TEST_SECRETS.JWT_SECRET;
    const newSecret = randomBytes(32).toString('hex');
    const rotated = await start({ JWT_SECRET: newSecret, JWT_SECRET_PREVIOUS: oldSecret }, databaseUrl);
    const user = await buildUser(rotated);
    const oldToken = signSessionToken(sessionKey(oldSecret), user.id, user.tokenVersion, 3600);
    expect((await api(rotated).get('/auth/me', oldToken)).status).to.equal(200);
    expect((await api(rotated).get('/auth/me', tokenFor(rotated, user))).status).to.equal(200);
    const done = await start({ JWT_SECRET: newSecret }, databaseUrl);
    expect((await api(done).get('/auth/me', oldToken)).status).to.equal(401);
  });

  it('connections_ofABusyProcess_allNamedAndUnderTheBudget', async function () {
    requireCorpus(this);
    const databaseUrl = await createTestDatabase();
    const server = await start({ DATABASE_POOL_MAX: '4' }, databaseUrl);
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const watcher = new pg.Client({ connectionString: databaseUrl, application_name: 'connection-watcher' });
    await watcher.connect();
    const dbName = new URL(databaseUrl).pathname.slice(1);
    const prefix = `aabify-all-${server.ctx.instance.short}-`;
    let peak = 0;
    let unnamed: string[] = [];
    const sample = async () => {
      const { rows } = await watcher.query<{ application_name: string }>(`SELECT application_name FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`, [dbName]);
      peak = Math.max(peak, rows.filter((r) => r.application_name.startsWith(prefix)).length);
      unnamed = unnamed.concat(rows.map((r) => r.application_name).filter((n) => !n.startsWith(prefix)));
    };
    try {
      // Load: conversions, API calls and sockets at once, sampled all along.
      const ids = await Promise.all([0, 1, 2].map(() => uploadApk(server, token, corpusApk('jx-small.apk')).then(conversionIdOf)));
      const busy = Promise.all([...ids.map((id) => waitForStatus(server, token, id, ['completed', 'failed'], 60000)), ...Array.from({ length: 40 }, () => api(server).get('/conversion/history', token))]);
      let finished = false;
      void busy.finally(() => (finished = true));
      while (!finished) {
        await sample();
        await new Promise((r) => setTimeout(r, 20));
      }
      await busy;
    } finally {
      await watcher.end();
    }
    expect(unnamed, 'connections this process did not name').to.deep.equal([]);
    expect(peak).to.be.greaterThan(3);
    expect(peak).to.be.at.most(connectionBudget(4));
  });

  it('ready_answersWhatFailed_503WhenTheDatabaseIsGone', async () => {
    const databaseUrl = await createTestDatabase();
    const server = await start({ ROLE: 'web' }, databaseUrl);
    const ok = await api(server).get<{ checks: Record<string, boolean>; failed: string[] }>('/ready');
    expect(ok.status).to.equal(200);
    expect(ok.body.checks).to.deep.equal({ database: true, storage: true, queue: true });
    await server.ctx.sequelize.close();
    const down = await api(server).get<{ failed: string[] }>('/ready');
    expect(down.status).to.equal(503);
    expect(down.body.failed).to.include('database');
    servers.splice(0); // its pool is closed: stop would log errors
    await server.close().catch(() => undefined);
  });

  it('metrics_offWithoutToken_bearerOnly_routePatternsAndOutcomes', async function () {
    requireCorpus(this);
    const databaseUrl = await createTestDatabase();
    const off = await start({ ROLE: 'web' }, databaseUrl);
    expect((await fetch(`${off.url}/metrics`)).status).to.equal(404);
    const metricsToken = randomBytes(16).toString('hex');
    const server = await start({ METRICS_TOKEN: metricsToken }, databaseUrl);
    expect((await fetch(`${server.url}/metrics`)).status).to.equal(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-any-length' } })).status).to.equal(401);
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const id = conversionIdOf(await uploadApk(server, token, corpusApk('jx-small.apk')));
    await waitForStatus(server, token, id, ['completed'], 60000);
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(res.status).to.equal(200);
    const text = await res.text();
    expect(text).to.contain('aabify_http_request_duration_seconds_bucket{');
    expect(text).to.contain('route="/api/conversion/status/:id"');
    expect(text).to.not.contain(id);
    expect(text).to.match(/aabify_conversions_total\{[^}]*outcome="completed"[^}]*\} 1$/m);
    expect(text, text.split('\n').filter((l) => l.startsWith('aabify_engine_duration_seconds_count')).join('\n')).to.match(/aabify_engine_duration_seconds_count\{[^}]*outcome="completed"[^}]*\} 1$/m);
    expect(text).to.match(/aabify_queue_depth\{[^}]*status="queued"[^}]*\} 0$/m);
    expect(text).to.contain('aabify_worker_utilisation');
    expect(text).to.contain('aabify_payments');
  });

  it('statusRead_everyPoolConnectionHeld_rowsReadAgainThroughTheReadLane_placeInLineNow', async function () {
    requireCorpus(this);
    const databaseUrl = await createTestDatabase();
    // A web process runs no conversions: what is submitted waits in line.
    const server = await start({ DATABASE_POOL_MAX: '2', ROLE: 'web' }, databaseUrl);
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const ids: string[] = [];
    for (const name of ['a.apk', 'b.apk']) ids.push(conversionIdOf(await uploadApk(server, token, corpusApk('jx-small.apk'), { fileName: name })));
    expect((await api(server).get<{ queuePosition: number }>(`/conversion/status/${ids[1]}`, token)).body.queuePosition).to.equal(2);
    // Another process starts the first one and takes its credit meanwhile: the conversion's and
    // the user's rows changed, so this process reads them (and the queue) again, not from memory.
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    await other.query(`UPDATE conversions SET status = 'processing', "processingStartedAt" = now() WHERE id = $1`, [ids[0]]);
    await other.query(`UPDATE conversions SET "updatedAt" = now() WHERE id = $1`, [ids[1]]);
    await other.query(`UPDATE users SET "lastLogin" = now() WHERE id = $1`, [user.id]);
    await other.end();
    await server.ctx.notifier.sync();
    server.ctx.conversionStats.queueChanged();
    // Both connections of the application pool held, as a burst of uploads holds them.
    const release = await holdConnections(server, 2);
    try {
      const status = await Promise.race([
        api(server).get<{ status: string; queuePosition: number; totalInQueue: number; currentlyProcessing: number }>(`/conversion/status/${ids[1]}`, token),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the status read waited for the held pool')), 10000)),
      ]);
      expect(status.status).to.equal(200);
      expect(status.body).to.include({ status: 'queued', queuePosition: 1, totalInQueue: 1, currentlyProcessing: 1 });
    } finally {
      await release();
    }
  });

  it('statusRead_principalLaneHeld_aKnownSessionAnswers_aNewSessionWaitsItsTurn', async () => {
    const databaseUrl = await createTestDatabase();
    const server = await start({ ROLE: 'web' }, databaseUrl);
    const known = await buildSubscriber(server, 30);
    const knownToken = tokenFor(server, known);
    const c = await buildConversion(server, known, { status: 'queued', queuedAt: new Date() });
    // The first use writes the session's row (tokenFor signs as issueToken does), the second keeps it in memory.
    for (let i = 0; i < 2; i++) expect((await api(server).get(`/conversion/status/${c.id}`, knownToken)).status).to.equal(200);
    const newcomer = await buildSubscriber(server, 30);
    const newcomerToken = tokenFor(server, newcomer);
    // Every connection that loads sessions and users held, as a burst of new sessions holds them.
    const release = await holdConnections(server, 2, server.readLanes.principals.sequelize);
    let firstRequest: Promise<{ status: number }> | undefined;
    try {
      const status = await Promise.race([
        api(server).get<{ status: string; queuePosition: number }>(`/conversion/status/${c.id}`, knownToken),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the status read waited for the held principal lane')), 10000)),
      ]);
      expect(status.status).to.equal(200);
      expect(status.body).to.include({ status: 'queued', queuePosition: 1 });
      // The newcomer's session and user are not in memory: its first request waits for a connection.
      firstRequest = api(server).get('/auth/me', newcomerToken);
      const meanwhile = await Promise.race([firstRequest.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
      expect(meanwhile).to.equal('waiting');
    } finally {
      await release();
    }
    expect((await firstRequest!).status).to.equal(200);
  });

  it('metrics_poolHeldByTransactions_showsTheWaitingQueryAndHowLongItWaited', async () => {
    const databaseUrl = await createTestDatabase();
    const metricsToken = randomBytes(16).toString('hex');
    const server = await start({ METRICS_TOKEN: metricsToken, DATABASE_POOL_MAX: '2', ROLE: 'web' }, databaseUrl);
    const scrape = async () => (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    const figure = (text: string, series: string) => Number(new RegExp(`^${series}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
    const before = figure(await scrape(), 'aabify_db_pool_wait_seconds_count');
    // Both connections held by open transactions; a third query must wait for one.
    const release = await holdConnections(server, 2);
    const waiting = server.ctx.sequelize.query('SELECT 1', { type: QueryTypes.SELECT });
    await new Promise((r) => setTimeout(r, 300));
    // Read from the registry: a scrape over HTTP would itself wait for the pool (its queue-depth figure).
    const busy = await server.ctx.metrics.registry.getSingleMetricAsString('aabify_db_pool_connections');
    expect(busy).to.match(/^aabify_db_pool_connections\{[^}]*state="in_use"[^}]*\} 2$/m);
    expect(busy).to.match(/^aabify_db_pool_connections\{[^}]*state="waiting"[^}]*\} 1$/m);
    await Promise.all([release(), waiting]);
    const after = await scrape();
    expect(figure(after, 'aabify_db_pool_wait_seconds_count') - before).to.be.at.least(3);
    // The waiting query waited 300 ms or more: it is counted above the 0.25 s bucket.
    const under250 = figure(after, 'aabify_db_pool_wait_seconds_bucket\\{[^}]*le="0.25"[^}]*\\}');
    expect(figure(after, 'aabify_db_pool_wait_seconds_count') - under250).to.be.at.least(1);
  });
});
