/**
 * The conversion runner alone: no HTTP, no composition root — a real Postgres, a real job queue,
 * the real engine in worker threads, and only the services the runner declares, built here.
 * Claim → execute → complete; and a conversion whose process died mid-run: reclaimed, resumed,
 * and failed once it has had all its runs.
 */
import { expect } from 'chai';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Sequelize } from 'sequelize';
import type { ConversionUpdate } from '@aabify/shared';
import { createSequelize } from '../src/db/database.js';
import { prepareSchema } from '../src/db/migrate.js';
import { initModels, type Models } from '../src/models/index.js';
import { createJobQueue, ensureQueueSchema, closeJobQueue, type JobQueue } from '../src/jobs/queue.js';
import { ServerInstance } from '../src/jobs/instances.js';
import { defineJobs, enqueueFor } from '../src/jobs/define.js';
import { JOBS } from '../src/jobs/names.js';
import { reclaimOrphanedConversions } from '../src/jobs/conversions.js';
import { createSettingsService } from '../src/settings/index.js';
import { keyRingOf } from '../src/settings/crypto.js';
import { createMetrics } from '../src/ops/metrics.js';
import { Outbox } from '../src/mail/outbox.js';
import { Mailer } from '../src/mail/notices.js';
import { createRealtime, type Realtime } from '../src/realtime/io.js';
import { createStorage, storageKeys, type Storage } from '../src/storage/index.js';
import { ConversionEvents } from '../src/conversions/events.js';
import { QueueStats } from '../src/conversions/queueStats.js';
import { openReadLane, type ReadLane } from '../src/db/readLane.js';
import { QueueBroadcaster } from '../src/conversions/queueBroadcaster.js';
import { ConversionLogWriter } from '../src/conversions/logWriter.js';
import { ConversionFiles } from '../src/conversions/files.js';
import { WorkerPool } from '../src/conversions/workerPool.js';
import { ConversionRunner } from '../src/conversions/runner.js';
import { loadConfig } from '../src/config.js';
import { resolveSecrets } from '../src/secrets.js';
import { createTestDatabase } from './helpers/postgres.js';
import { buildCreditUser } from './helpers/factories.js';
import { corpusApk, requireCorpus } from './helpers/conversions.js';
import { TEST_SECRETS } from './helpers/server.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const LOCK_LIFETIME_MS = 2000;
const MAX_ATTEMPTS = 3;

interface Parts {
  sequelize: Sequelize;
  models: Models;
  queue: JobQueue;
  storage: Storage;
  realtime: Realtime;
  instance: ServerInstance;
  runner: ConversionRunner;
  pool: WorkerPool;
  events: ConversionEvents;
  dataDir: string;
  readLane: ReadLane;
}

/** The runner and exactly what it declares, on a fresh database. */
async function buildRunner(): Promise<Parts> {
  const databaseUrl = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'aabify-runner-'));
  await chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...TEST_SECRETS });
  const secrets = await resolveSecrets(config);
  const sequelize = createSequelize(databaseUrl, logger);
  const instance = new ServerInstance('worker', logger, { heartbeatMs: 500, staleAfterMs: 2000 });
  const queue = createJobQueue({ databaseUrl, name: instance.id, logger, processEvery: 100, lockLifetimeMs: LOCK_LIFETIME_MS });
  await prepareSchema(sequelize, logger, () => ensureQueueSchema(queue));
  await instance.start(sequelize);
  const models = initModels(sequelize);
  const settings = createSettingsService({ sequelize, config, keys: keyRingOf(secrets), logger });
  const storage = await createStorage(config);
  const realtime = createRealtime(databaseUrl, logger);
  const events = new ConversionEvents(realtime.io, logger);
  const readLane = openReadLane(databaseUrl, logger);
  const stats = new QueueStats({ read: readLane.read, settings });
  const queueBroadcaster = new QueueBroadcaster({ stats, events, settings, logger });
  const pool = new WorkerPool({ size: () => 2, logger });
  const outbox = new Outbox({ config, models, sequelize, logger, keys: keyRingOf(secrets), queue });
  const runner = new ConversionRunner(
    {
      sequelize,
      models,
      logger,
      secrets,
      config,
      settings,
      storage,
      mail: new Mailer({ models, sequelize, logger }, outbox),
      metrics: createMetrics({ sequelize, config, instance, version: 'test' }),
      instance,
      workerPool: pool,
      conversionEvents: events,
      conversionLogs: new ConversionLogWriter({ models, events, logger }),
      conversionFiles: new ConversionFiles({ models, storage, logger }),
      conversionStats: stats,
      queueBroadcaster,
      queue,
    },
    { claimRetryMs: 200, maxAttempts: MAX_ATTEMPTS },
  );
  defineJobs(queue, [{ name: JOBS.conversionRun, run: (job) => runner.handle(job as never), lease: true, removeOnComplete: true }], { lockLifetimeMs: LOCK_LIFETIME_MS, logger });
  await queue.start();
  return { sequelize, models, queue, storage, realtime, instance, runner, pool, events, dataDir, readLane };
}

async function waitForStatus(models: Models, id: string, statuses: string[], ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const c = await models.Conversion.findByPk(id);
    if (c && statuses.includes(c.status)) return c;
    if (Date.now() > deadline) throw new Error(`conversion ${id} still ${c?.status}, expected ${statuses.join('|')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('conversion runner on its own (real Postgres, queue and engine; no HTTP)', function () {
  this.timeout(90_000);
  let parts: Parts;

  before(async function () {
    requireCorpus(this);
    parts = await buildRunner();
  });

  after(async () => {
    if (!parts) return;
    await parts.runner.shutdown(2000);
    await closeJobQueue(parts.queue, 2000);
    await parts.pool.close();
    await parts.realtime.close();
    await parts.instance.stop();
    await parts.readLane.close();
    await parts.sequelize.close();
    await rm(parts.dataDir, { recursive: true, force: true });
  });

  /** A queued conversion of a user with one credit reserved, its APK in the store. */
  async function queuedConversion(overrides: Record<string, unknown> = {}) {
    const { models, storage } = parts;
    const user = await buildCreditUser({ ctx: parts }, 0);
    const id = crypto.randomUUID();
    const apkKey = storageKeys.apk(id);
    // A stream, never putFile: that moves its file (the corpus must stay where it is).
    await storage.write(apkKey, createReadStream(corpusApk('jx-small.apk')));
    const conversion = await models.Conversion.create({
      id,
      userId: user.id,
      fileName: 'jx-small.apk',
      fileSize: 1,
      options: {},
      apkKey,
      status: 'queued',
      queuedAt: new Date(),
      creditState: 'reserved',
      ...overrides,
    });
    return { user, conversion };
  }

  it('claim_execute_complete_aabStoredCreditSpentEventsSent', async () => {
    const { conversion } = await queuedConversion();
    const seen: ConversionUpdate[] = [];
    let stop = () => {};
    const ended = new Promise<void>((resolve) => {
      stop = parts.events.subscribe(conversion.id, (msg) => {
        seen.push(msg);
        if (msg.type === 'completed' || msg.type === 'error') resolve();
      });
    });
    await enqueueFor(parts.queue, JOBS.conversionRun, 'conversionId', conversion.id);
    await ended;
    stop();
    const done = await waitForStatus(parts.models, conversion.id, ['completed', 'failed']);
    expect(done.status, done.errorDetail ?? '').to.equal('completed');
    expect(done.creditState).to.equal('spent');
    expect(done.attempts).to.equal(1);
    expect(done.workerName).to.equal(null);
    expect(done.aabKey).to.be.a('string');
    expect(await parts.storage.size(done.aabKey!)).to.equal(done.aabSize);
    expect(done.report?.packageName).to.be.a('string');
    expect(seen.map((m) => m.type)).to.include.members(['status_change', 'progress', 'completed']);
    const logs = await parts.models.ConversionLog.findAll({ where: { conversionId: conversion.id } });
    expect(logs.map((l) => l.level)).to.include('success');
  });

  it('sameJobRunTwiceAtOnceInOneProcess_convertedOnce', async () => {
    // What the queue does when a conversion's job is saved again while it is being picked up: two
    // runs of it in this process at the same moment. Only one may claim and convert it.
    const { conversion } = await queuedConversion();
    const job = { attrs: { data: { conversionId: conversion.id } }, schedule: () => job };
    await Promise.all([parts.runner.handle(job as never), parts.runner.handle(job as never)]);
    const done = await waitForStatus(parts.models, conversion.id, ['completed', 'failed']);
    expect(done.status, done.errorDetail ?? '').to.equal('completed');
    expect(done.attempts, 'runs of the conversion').to.equal(1);
    const logs = await parts.models.ConversionLog.findAll({ where: { conversionId: conversion.id } });
    expect(logs.filter((l) => l.level === 'success'), 'success lines').to.have.length(1);
    expect(logs.map((l) => l.message).join('\n')).to.not.match(/retomad/i);
  });

  it('crashedInstance_reclaimedAndResumed_completesOnItsSecondRun', async () => {
    // The row of a process that died mid-run: processing, run once, its instance not beating.
    const { conversion } = await queuedConversion({
      status: 'processing',
      attempts: 1,
      workerName: 'dead-host:1:0000',
      processingStartedAt: new Date(Date.now() - 60_000),
    });
    // Its job still locked by the dead process: only the orphan sweep (or the lock's expiry) frees it.
    // Written due in an hour, so this process cannot pick it up before it is locked below.
    await parts.queue.create(JOBS.conversionRun, { conversionId: conversion.id }).schedule(new Date(Date.now() + 3_600_000)).save();
    await parts.sequelize.query(`UPDATE agenda_jobs SET locked_at = now() + interval '1 hour', next_run_at = now() + interval '1 hour' WHERE data->>'conversionId' = :id`, {
      replacements: { id: conversion.id },
    });
    const reclaimed = await reclaimOrphanedConversions(parts);
    expect(reclaimed).to.include(conversion.id);
    const done = await waitForStatus(parts.models, conversion.id, ['completed', 'failed']);
    expect(done.status, done.errorDetail ?? '').to.equal('completed');
    expect(done.attempts).to.equal(2);
    expect(done.creditState).to.equal('spent');
    const logs = await parts.models.ConversionLog.findAll({ where: { conversionId: conversion.id }, order: [['id', 'ASC']] });
    expect(logs[0]?.message).to.match(/retomad/i);
  });

  it('crashedOnEveryRun_failsCodedAfterItsLastRun_creditReturned', async () => {
    const { conversion } = await queuedConversion({
      status: 'processing',
      attempts: MAX_ATTEMPTS,
      workerName: 'dead-host:2:0000',
      processingStartedAt: new Date(Date.now() - 60_000),
    });
    await enqueueFor(parts.queue, JOBS.conversionRun, 'conversionId', conversion.id);
    const done = await waitForStatus(parts.models, conversion.id, ['completed', 'failed']);
    expect(done.status).to.equal('failed');
    expect(done.errorCode).to.equal('WORKER_CRASHED');
    expect(done.creditState).to.equal('returned');
    expect(done.attempts).to.equal(MAX_ATTEMPTS);
    // Its uploads go (just after the failure is committed): nothing will read them again.
    const deadline = Date.now() + 10_000;
    while (!(await parts.models.Conversion.findByPk(conversion.id))?.filesPurgedAt && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await parts.storage.size(storageKeys.apk(conversion.id))).to.equal(undefined);
  });

  it('runningOnALiveInstance_otherRunnerWaits_rowUntouched', async () => {
    // Processing on an instance that still beats (this test's own heartbeat row, under another name).
    const alive = 'alive-host:3:0000';
    await parts.sequelize.query(`INSERT INTO worker_instances (id, role, hostname, pid) VALUES (:id, 'worker', 'alive-host', 3)`, { replacements: { id: alive } });
    const { conversion } = await queuedConversion({ status: 'processing', attempts: 1, workerName: alive, processingStartedAt: new Date() });
    await enqueueFor(parts.queue, JOBS.conversionRun, 'conversionId', conversion.id);
    await new Promise((r) => setTimeout(r, 1500));
    const now = await parts.models.Conversion.findByPk(conversion.id);
    expect(now?.status).to.equal('processing');
    expect(now?.workerName).to.equal(alive);
    expect(now?.attempts).to.equal(1);
    await now?.update({ status: 'cancelled', workerName: null });
    await parts.sequelize.query(`DELETE FROM worker_instances WHERE id = :id`, { replacements: { id: alive } });
  });
});
