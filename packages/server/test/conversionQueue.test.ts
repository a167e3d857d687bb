import { expect } from 'chai';
import pg from 'pg';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversionUpdate } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { QueryTypes } from 'sequelize';
import { api } from './helpers/http.js';
import { buildCreditUser, buildSubscriber, tokenFor } from './helpers/factories.js';
import { queriesDuring } from './helpers/queries.js';
import { CLAIM_RETRY_MS } from '../src/conversions/runner.js';
import {
  SLOW_ENGINE,
  collect,
  connected,
  conversionIdOf,
  corpusApk,
  request,
  requireCorpus,
  sleep,
  socketFor,
  statusOf,
  uploadBytes,
  waitFor,
  waitForStatus,
} from './helpers/conversions.js';

describe('conversions: queue limits, cancel, credits under concurrency', function () {
  this.timeout(180000);
  let server: TestServer;
  let apk: Buffer;

  before(async function () {
    requireCorpus(this);
    apk = await readFile(corpusApk('jx-small.apk'));
    server = await startTestServer({}, { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 400 } }, claimRetryMs: 100 } });
  });
  after(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await server.ctx.settings.unset('conversions.maxConcurrent');
    await server.ctx.settings.unset('conversions.concurrentPerUser');
  });

  /** Samples how many conversions run at once until every one is final. */
  async function watchConcurrency(ids: string[], perUser?: Map<string, string>): Promise<{ max: number; maxPerUser: number }> {
    let max = 0;
    let maxPerUser = 0;
    for (;;) {
      const rows = await server.ctx.models.Conversion.findAll({ where: { id: ids } });
      const processing = rows.filter((r) => r.status === 'processing');
      max = Math.max(max, processing.length);
      if (perUser) {
        const counts = new Map<string, number>();
        for (const r of processing) counts.set(r.userId, (counts.get(r.userId) ?? 0) + 1);
        maxPerUser = Math.max(maxPerUser, ...counts.values(), 0);
      }
      if (rows.every((r) => ['completed', 'failed', 'cancelled'].includes(r.status))) return { max, maxPerUser };
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('queue_globalLimit_neverRunsMoreThanMaxConcurrentAndReportsPositions', async () => {
    await server.ctx.settings.set('conversions.maxConcurrent', 2);
    await server.ctx.settings.set('conversions.concurrentPerUser', 0);
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const socket = socketFor(server, token);
    await connected(socket);
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadBytes(server, token, apk, { fileName: `p${i}.apk` })));
    const ids = responses.map(conversionIdOf);
    for (const id of ids) await request(socket, 'subscribe-conversion', { conversionId: id });
    const seen = new Map(ids.map((id) => [id, collect(socket, id)]));
    const { max } = await watchConcurrency(ids);
    expect(max).to.equal(2);
    for (const id of ids) expect((await statusOf(server, token, id)).status).to.equal('completed');
    // Waiting conversions were told their place: positions only go down, with the documented fields.
    const queueMessages = [...seen.values()].flat().filter((m): m is ConversionUpdate => m.type === 'queue_position' && m.status === 'queued');
    expect(queueMessages.length).to.be.above(0);
    const sample = queueMessages[0]!;
    expect(sample).to.include.keys('position', 'queuePosition', 'estimatedTime', 'totalWaiting', 'averageProcessingTime', 'currentlyProcessing', 'maxConcurrent');
    expect(sample.maxConcurrent).to.equal(2);
    for (const msgs of seen.values()) {
      const positions = msgs.filter((m) => m.type === 'queue_position' && m.status === 'queued').map((m) => m.position!);
      for (let i = 1; i < positions.length; i++) expect(positions[i]).to.be.at.most(positions[i - 1]!);
    }
    // After this history, the estimate comes from measured durations, not the 120000 ms default.
    const stats = await api(server).get<{ averageProcessingTime: number }>(`/conversion/status/${ids[0]}`, token);
    expect(stats.body.averageProcessingTime).to.be.below(60000);
    socket.close();
  });

  it('queue_perUserLimit_holdsOneUsersThirdWhileAnotherUserRuns', async () => {
    await server.ctx.settings.set('conversions.maxConcurrent', 4);
    await server.ctx.settings.set('conversions.concurrentPerUser', 1);
    const a = await buildSubscriber(server, 30);
    const b = await buildSubscriber(server, 30);
    const ta = tokenFor(server, a);
    const tb = tokenFor(server, b);
    const owner = new Map<string, string>();
    const aIds = (await Promise.all([0, 1, 2].map((i) => uploadBytes(server, ta, apk, { fileName: `a${i}.apk` })))).map(conversionIdOf);
    const bIds = (await Promise.all([0, 1].map((i) => uploadBytes(server, tb, apk, { fileName: `b${i}.apk` })))).map(conversionIdOf);
    for (const id of aIds) owner.set(id, a.id);
    for (const id of bIds) owner.set(id, b.id);
    // b's first conversion starts while a's line is held back: a does not block b.
    await waitForStatus(server, tb, bIds[0]!, ['processing', 'completed'], 20000);
    const { max, maxPerUser } = await watchConcurrency([...aIds, ...bIds], owner);
    expect(maxPerUser).to.equal(1);
    expect(max).to.equal(2);
  });

  it('cancel_atEachStage_stopsTheConversionAndReturnsTheCredit', async () => {
    await server.ctx.settings.set('conversions.maxConcurrent', 1);
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    // pending: uploaded, never started.
    const pending = conversionIdOf(await uploadBytes(server, token, apk, { path: '/conversion/upload' }));
    // processing, and queued behind it.
    const running = conversionIdOf(await uploadBytes(server, token, apk, { fileName: 'rodando.apk' }));
    const queued = conversionIdOf(await uploadBytes(server, token, apk, { fileName: 'fila.apk' }));
    await waitForStatus(server, token, running, ['processing'], 20000);
    expect((await statusOf(server, token, queued)).status).to.equal('queued');
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([1, 2]);

    const socket = socketFor(server, token);
    await connected(socket);
    await request(socket, 'subscribe-conversion', { conversionId: running });
    const runningMessages = collect(socket, running);

    for (const id of [pending, queued, running]) {
      const res = await api(server).post(`/conversion/cancel/${id}`, undefined, token);
      expect(res.status, id).to.equal(200);
      expect(res.body.message).to.equal('Conversão cancelada');
    }
    for (const id of [pending, queued, running]) expect((await statusOf(server, token, id)).status).to.equal('cancelled');
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([3, 0]);
    await waitFor(() => (runningMessages.some((m) => m.type === 'status_change' && m.status === 'cancelled') ? true : undefined), 5000, 'cancel event');

    // The engine really stopped: the slot frees and nothing completes the cancelled one later.
    const next = conversionIdOf(await uploadBytes(server, token, apk, { fileName: 'depois.apk' }));
    expect((await waitForStatus(server, token, next, ['completed', 'failed'])).status).to.equal('completed');
    const after = await statusOf(server, token, running);
    expect(after).to.include({ status: 'cancelled', canDownload: false });
    expect(runningMessages.some((m) => m.type === 'completed')).to.equal(false);
    socket.close();
  });

  it('complete_whileAnInsertChecksTheOwnerThenTheConversion_noDeadlock', async () => {
    // The CLI mints a stream ticket right after its upload; a small APK can be finishing then. The
    // ticket's insert checks its foreign keys with these two statements, the owner's row first.
    // The completion locks the conversion, then the owner. Locked FOR UPDATE, the two waited for
    // each other and Postgres cancelled one a second later: a failed conversion, or a 500.
    const checkOwner = 'SELECT 1 FROM ONLY users x WHERE id = :id FOR KEY SHARE OF x';
    const checkConversion = 'SELECT 1 FROM ONLY conversions x WHERE id = :id FOR KEY SHARE OF x';
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const id = conversionIdOf(await uploadBytes(server, token, apk, { fileName: 'bilhete.apk' }));
    await waitForStatus(server, token, id, ['processing'], 20000);
    const { sequelize, models } = server.ctx;
    const insert = await sequelize.transaction();
    try {
      await sequelize.query(checkOwner, { replacements: { id: user.id }, transaction: insert });
      // The engine finishes between the two checks: the completion either goes through or waits for this transaction.
      const [{ pid }] = (await sequelize.query('SELECT pg_backend_pid() AS pid', { transaction: insert, type: QueryTypes.SELECT })) as [{ pid: number }];
      const waitsForTheInsert = async () => {
        const [{ n }] = (await sequelize.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))', { replacements: { pid }, type: QueryTypes.SELECT })) as [{ n: number }];
        return n > 0;
      };
      await waitFor(async () => ((await models.Conversion.findByPk(id))?.status !== 'processing' || (await waitsForTheInsert()) ? true : undefined), 30000, 'the engine to finish');
      await sequelize.query(checkConversion, { replacements: { id }, transaction: insert });
      await insert.commit();
    } catch (err) {
      await insert.rollback().catch(() => undefined);
      throw err;
    }
    const done = await waitForStatus(server, token, id, ['completed', 'failed', 'cancelled'], 30000);
    expect(done.status, done.error ?? '').to.equal('completed');
    await user.reload();
    expect([user.credits, user.creditsReserved, user.conversionsCount]).to.deep.equal([0, 0, 1]);
    // And the ticket itself, now.
    expect((await api(server).post(`/conversion/updates/${id}/ticket`, undefined, token)).status).to.equal(201);
  });

  it('credits_parallelUploadsWithOneCredit_onlyOneIsAccepted', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => uploadBytes(server, token, apk, { fileName: `corrida${i}.apk` })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 402, 402, 402, 402]);
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.body.message).to.equal('Você não possui créditos suficientes para fazer esta conversão.');
    }
    await user.reload();
    expect(user.credits + user.creditsReserved).to.equal(1);
    expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(1);
    // The refused uploads left no files behind.
    const id = conversionIdOf(results.find((r) => r.status === 201)!);
    await waitForStatus(server, token, id, ['completed']);
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([0, 0]);
  });

  it('shutdown_duringConversion_requeuesInsteadOfFailing', async () => {
    // A second server on the same database: the first stops mid-conversion, the second finishes it.
    const url = server.ctx.config.databaseUrl!;
    const first = await startTestServer({ STORAGE_DIR: join(server.dataDir, 'files') }, { databaseUrl: url, drainTimeoutMs: 5000, conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 2000 } } } });
    const user = await buildSubscriber(first, 30);
    const token = tokenFor(first, user);
    // Only `first` may take it: the shared server stops taking jobs for a while.
    await server.ctx.queue.stop(false);
    try {
      const id = conversionIdOf(await uploadBytes(first, token, apk, { fileName: 'reinicio.apk' }));
      await waitFor(async () => ((await first.ctx.models.Conversion.findByPk(id))?.status === 'processing' ? true : undefined), 20000, 'processing');
      await first.stop();
      const row = await server.ctx.models.Conversion.findByPk(id);
      expect(row!.status).to.equal('queued');
      expect(row!.progress).to.equal(0);
      await server.ctx.queue.start();
      const sameUser = tokenFor(server, user); // each server signs with its own secret
      const done = await waitForStatus(server, sameUser, id, ['completed', 'failed'], 60000);
      expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
      const logs = await api(server).get<{ logs: Array<{ message: string }> }>(`/conversion/logs/${id}`, sameUser);
      expect(logs.body.logs.map((l) => l.message)).to.include('Servidor reiniciando: a conversão voltou para a fila e continuará em seguida.');
    } finally {
      if (!server.ctx.queue.isActiveJobProcessor()) await server.ctx.queue.start();
    }
  });
});

describe('conversions: a long line costs the database little', function () {
  this.timeout(180000);
  let server: TestServer;
  let apk: Buffer;

  before(async function () {
    requireCorpus(this);
    apk = await readFile(corpusApk('jx-small.apk'));
    // The claim retry left at its default, as deployed.
    server = await startTestServer({}, { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 150 } } } });
    await server.ctx.settings.set('conversions.maxConcurrent', 1);
    await server.ctx.settings.set('conversions.concurrentPerUser', 0);
  });
  after(async () => {
    await server?.stop();
  });

  it('claims_manySubmittedAtOnce_noneWaitsOnTheQueueLockHoldingAConnection', async () => {
    // Two customers, up to each one's limit of conversions in line.
    const tokens = [tokenFor(server, await buildSubscriber(server, 30)), tokenFor(server, await buildSubscriber(server, 30))];
    // Sampled from outside: this server's connections blocked on an advisory lock in Postgres.
    const watcher = new pg.Client({ connectionString: server.ctx.config.databaseUrl! });
    await watcher.connect();
    let mostBlocked = 0;
    let samples = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await watcher.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        );
        mostBlocked = Math.max(mostBlocked, Number(rows[0]!.n));
        samples++;
        await sleep(5);
      }
    })();
    try {
      const sent = await Promise.all(Array.from({ length: 16 }, (_, i) => uploadBytes(server, tokens[i % 2]!, apk, { fileName: `lote${i}.apk` }).then((r) => ({ token: tokens[i % 2]!, id: conversionIdOf(r) }))));
      for (const { token, id } of sent) expect((await waitForStatus(server, token, id, ['completed', 'failed'], 90000)).status).to.equal('completed');
    } finally {
      sampling = false;
      await sampler;
      await watcher.end();
    }
    // The claims of one process take turns before taking a connection: none of them sits in
    // Postgres waiting for another's lock, holding a connection the other requests need.
    expect(samples).to.be.above(10);
    expect(mostBlocked, `${mostBlocked} connections blocked on the queue's lock at once`).to.equal(0);
  });

  it('queue_waitingConversions_startWhenWokenInsteadOfClaimingEverySecond', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const count = 6;
    let ids: string[] = [];
    // Every claim takes the queue's advisory lock once: claims are counted by it.
    const started = Date.now();
    const claims = await queriesDuring(server, /pg_advisory_xact_lock/, async () => {
      ids = (await Promise.all(Array.from({ length: count }, (_, i) => uploadBytes(server, token, apk, { fileName: `fila${i}.apk` })))).map(conversionIdOf);
      for (const id of ids) expect((await waitForStatus(server, token, id, ['completed', 'failed'], 60000)).status).to.equal('completed');
    });
    // One claim when submitted (one starts, the others wait) and one when a finished conversion
    // wakes it: 2n - 1. Claiming again every second while in line made it several times that.
    // A conversion also retries on its own every CLAIM_RETRY_MS: on a busy machine the line may
    // last that long, and those retries are the design, not polling.
    const ownRetries = count * Math.floor((Date.now() - started) / CLAIM_RETRY_MS);
    expect(claims.length, `${claims.length} claims for ${count} conversions in ${Date.now() - started} ms`).to.be.at.most(2 * count + ownRetries);
    const rows = await server.ctx.models.Conversion.findAll({ where: { id: ids }, order: [['processingStartedAt', 'ASC']] });
    // First in line first.
    expect(rows.map((r) => r.id)).to.deep.equal([...rows].sort((a, b) => a.queuedAt!.getTime() - b.queuedAt!.getTime() || (a.id < b.id ? -1 : 1)).map((r) => r.id));
  });

  it('history_pageOfQueuedConversions_readsTheQueueOnce', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    // Nothing starts meanwhile: every conversion of the page waits in line.
    await server.ctx.queue.stop(false);
    try {
      const ids = (await Promise.all(Array.from({ length: 5 }, (_, i) => uploadBytes(server, token, apk, { fileName: `h${i}.apk` })))).map(conversionIdOf);
      await sleep(500); // the submissions' own queue broadcast goes out first
      let page: { conversions: Array<{ status: string; queuePosition: number | null }> } | undefined;
      const queueReads = await queriesDuring(server, /WHERE status IN \('queued', 'processing'\)/, async () => {
        page = (await api(server).get<{ conversions: Array<{ status: string; queuePosition: number | null }> }>('/conversion/history?limit=10', token)).body;
      });
      const waiting = page!.conversions.filter((c) => c.status === 'queued');
      expect(waiting).to.have.length(ids.length);
      // Each row has its own place in line, from one read of the queue, not one per row (a
      // periodic queue broadcast falling in the same moment may read it once more).
      expect(new Set(waiting.map((c) => c.queuePosition)).size).to.equal(waiting.length);
      expect(queueReads.length, `${queueReads.length} reads of the queue for ${waiting.length} rows`).to.be.at.most(2);
    } finally {
      await server.ctx.queue.start();
    }
  });
});
