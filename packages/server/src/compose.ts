/**
 * The composition root: every service of a process, built once, in dependency order, from the
 * process's infrastructure (server.ts opens that: database, queue, store, socket.io). Each
 * service gets exactly the parts it declares; the result is complete and frozen — nothing is
 * filled in later, so no caller ever checks for a missing service.
 */
import type { Sequelize } from 'sequelize';
import type { Server } from 'socket.io';
import { KEYSTORE_LIMITS, VERSION } from '@aabify/shared';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { Logger } from './logger.js';
import type { ServerSecrets } from './secrets.js';
import type { Notifier } from './db/notifications.js';
import { initModels } from './models/index.js';
import type { JobQueue } from './jobs/queue.js';
import type { ServerInstance } from './jobs/instances.js';
import type { JobDefinition } from './jobs/define.js';
import { conversionJobs, type ConversionJobsOptions } from './jobs/conversions.js';
import { publicationJobs } from './jobs/publications.js';
import { mailJobs } from './jobs/mail.js';
import { paymentJobs } from './jobs/payments.js';
import { auditJobs } from './jobs/audit.js';
import { privacyJobs } from './jobs/privacy.js';
import { fiscalJobs } from './jobs/fiscal.js';
import { FiscalNotes, type FiscalNotesOptions } from './fiscal/notes.js';
import type { RateLimits, RateLimiterOptions } from './http/rateLimiter.js';
import { createMetrics } from './ops/metrics.js';
import type { Storage } from './storage/index.js';
import { keyRingOf } from './settings/crypto.js';
import { createSettingsService, type SettingsService } from './settings/index.js';
import { createAuthService, type AuthLimits } from './accounts/authService.js';
import { Outbox, type OutboxOptions } from './mail/outbox.js';
import { Mailer } from './mail/notices.js';
import { createPaymentGateway } from './payments/providers/index.js';
import { KeystoreOpener, type KeystoreOpenerOptions } from './keystores/opener.js';
import { LiveAccess } from './realtime/access.js';
import type { EngineSelection } from './conversions/engine.js';
import { WorkerPool } from './conversions/workerPool.js';
import { ConversionEvents } from './conversions/events.js';
import { QueueStats } from './conversions/queueStats.js';
import type { ReadLane } from './db/readLane.js';
import { ConversionRowCache } from './conversions/rowCache.js';
import { ConversionLogWriter } from './conversions/logWriter.js';
import { ConversionFiles } from './conversions/files.js';
import { QueueBroadcaster } from './conversions/queueBroadcaster.js';
import { CLAIM_RETRY_MS, ConversionRunner } from './conversions/runner.js';
import { PublicationEvents } from './play/publications.js';
import { PublicationRunner } from './play/publicationRunner.js';
import { LegalDocuments } from './legal/documents.js';

/** What server.ts has opened for this process. */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  secrets: ServerSecrets;
  sequelize: Sequelize;
  notifier: Notifier;
  queue: JobQueue;
  instance: ServerInstance;
  rateLimits: RateLimits;
  /** Reads apart from the application pool (db/readLane.ts). */
  reads: Pick<ReadLane, 'read' | 'models'>;
  /** The principal cache's loads, apart from the poll reads (db/connections.ts POOLS.principals). */
  principalReads: Pick<ReadLane, 'models'>;
  storage: Storage;
  io: Server;
}

export interface ConversionOptions extends ConversionJobsOptions {
  /** Engine module run by the workers (tests: a slowed-down engine). */
  engine?: EngineSelection;
  /** How soon a conversion that could not start yet tries again on its own (default CLAIM_RETRY_MS). */
  claimRetryMs?: number;
  /** Runs of a conversion whose process keeps dying before it fails. */
  maxAttempts?: number;
  /** Time an aborted engine gets before its worker thread is terminated. */
  abortGraceMs?: number;
  /** Heap cap of each worker thread (default WORKER_HEAP_LIMIT_MB; tests lower it). */
  workerHeapLimitMb?: number;
  /** Submissions per user (convert, start, bulk). */
  submitRateLimit?: RateLimiterOptions;
}

/** Tuning that tests change; production leaves every field to its default. */
export interface ComposeOptions {
  conversions?: ConversionOptions;
  /** Mercado Pago and Stripe client tuning, shortened by tests. */
  payments?: { mercadoPago?: { timeoutMs?: number; retries?: number }; stripe?: { timeoutMs?: number; retries?: number } };
  /** E-mail delivery tuning (tests: short retry delays). */
  mail?: OutboxOptions;
  /** Keystore workers' time budget and parallelism (tests lower the budget). */
  keystores?: Omit<KeystoreOpenerOptions, 'logger'>;
  /** Sign-in limits other than the defaults (tests). */
  authLimits?: Partial<AuthLimits>;
  /** Google Play publishing tuning (tests: small upload chunks). */
  play?: { uploadChunkBytes?: number };
  /** NFS-e requests: retry and polling delays (tests shorten them). */
  fiscal?: FiscalNotesOptions;
}

export interface Composed {
  ctx: AppContext;
  /** Every background job of the product, to define on the queue (jobs/define.ts). */
  jobs: JobDefinition<never>[];
  /** Hands running conversions back to the queue and stops the engine threads (before the queue drains). */
  stopConversions(drainTimeoutMs?: number): Promise<void>;
  /** Releases what the other services hold: keystore threads, SMTP connections (after the queue drained). */
  release(): Promise<void>;
}

/** The log level: a level an admin sets on any process applies on all; without a stored one, LOG_LEVEL stays. */
function followLogLevel(settings: SettingsService, logger: Logger): void {
  // A reload of every setting (e.g. after a reconnect) must not impose the setting's default.
  const startLevel = logger.level;
  settings.onChange((key) => {
    if (key !== undefined && key !== 'logging.level') return;
    void (async () => {
      const stored = (await settings.stored('logging.level')) === 'ok';
      logger.level = (stored ? await settings.get('logging.level') : null) ?? startLevel;
    })().catch((err: unknown) => logger.warn({ err }, 'logging level not reloaded'));
  });
}

export function compose(infra: Infrastructure, opts: ComposeOptions = {}): Composed {
  const { config, logger, secrets, sequelize, notifier, queue, instance, rateLimits, reads, principalReads, storage, io } = infra;
  const conversionOpts = opts.conversions ?? {};
  const models = initModels(sequelize);
  const keys = keyRingOf(secrets);
  const settings = createSettingsService({ sequelize, config, keys, logger, notifier });
  followLogLevel(settings, logger);
  const metrics = createMetrics({ sequelize, config, instance, version: VERSION });

  const outbox = new Outbox({ config, models, sequelize, logger, keys, queue }, opts.mail);
  const mail = new Mailer({ models, sequelize, logger }, outbox);
  const auth = createAuthService({ models, sequelize, jwtSecret: secrets.jwtSecret, jwtSecretPrevious: secrets.jwtSecretPrevious, logger, rateLimits, limits: opts.authLimits, notifier, readModels: principalReads.models });
  const liveAccess = new LiveAccess(io, { auth, models, logger });
  const payments = createPaymentGateway({
    config,
    settings,
    models,
    logger,
    mercadoPago: opts.payments?.mercadoPago,
    stripe: opts.payments?.stripe,
    onProviderFailure: (err) => void mail.notifyAdmins('payment_provider_failed', { Erro: err.message, Tipo: err.kind }),
    onUnusable: (state) => void mail.notifyAdmins('payment_provider_unusable', { Motivo: state.reason }),
  });
  const keystores = new KeystoreOpener({
    logger,
    // One keystore operation per user across every process; the window outlives an operation's budget.
    perUser: rateLimits.limiter('keystore-operations', { points: 1, windowMs: KEYSTORE_LIMITS.openBudgetMs + 20_000 }, { blockInMemory: false }),
    ...opts.keystores,
  });

  const conversionEvents = new ConversionEvents(io, logger);
  const conversionStats = new QueueStats({ read: reads.read, settings });
  const queueBroadcaster = new QueueBroadcaster({ stats: conversionStats, events: conversionEvents, settings, logger });
  const workerPool = new WorkerPool({
    size: () => queueBroadcaster.maxConcurrent,
    engine: conversionOpts.engine,
    logger,
    abortGraceMs: conversionOpts.abortGraceMs,
    heapLimitMb: conversionOpts.workerHeapLimitMb,
  });
  const conversionLogs = new ConversionLogWriter({ models, events: conversionEvents, logger });
  const conversionFiles = new ConversionFiles({ models, storage, logger });
  const conversionRunner = new ConversionRunner(
    { sequelize, models, logger, secrets, config, settings, storage, mail, metrics, instance, workerPool, conversionEvents, conversionLogs, conversionFiles, conversionStats, queueBroadcaster, queue },
    { claimRetryMs: conversionOpts.claimRetryMs ?? CLAIM_RETRY_MS, maxAttempts: conversionOpts.maxAttempts ?? 3 },
  );
  metrics.trackWorkers({ running: () => conversionRunner.activeCount, utilisation: () => workerPool.utilisation, threads: () => workerPool.threads, memory: () => workerPool.memory });

  const publicationEvents = new PublicationEvents({ io, models });
  const publicationRunner = new PublicationRunner({ sequelize, models, logger, secrets, config, storage, instance, publicationEvents }, opts.play);

  const ctx: AppContext = Object.freeze({
    config,
    logger,
    version: VERSION,
    startedAt: new Date(),
    instance,
    secrets,
    sequelize,
    models,
    notifier,
    queue,
    storage,
    rateLimits,
    metrics,
    settings,
    auth,
    liveAccess,
    mail,
    payments,
    keystores,
    conversionEvents,
    conversionStats,
    conversionRows: new ConversionRowCache({ models, notifier, readModels: reads.models }),
    conversionLogs,
    conversionFiles,
    queueBroadcaster,
    workerPool,
    conversionRunner,
    conversionSubmitLimiter: rateLimits.limiter('conversion-submit', conversionOpts.submitRateLimit ?? { points: 30, windowMs: 60_000 }),
    publicationEvents,
    publicationRunner,
    publishLimiter: rateLimits.limiter('play-publish', { points: 10, windowMs: 60_000 }),
    playTestLimiter: rateLimits.limiter('play-test', { points: 10, windowMs: 60_000 }),
    legal: new LegalDocuments({ models, notifier }),
    fiscal: new FiscalNotes({ models, sequelize, settings, config, queue, logger }, opts.fiscal),
  });
  const jobs = [...conversionJobs(ctx, conversionOpts), ...publicationJobs(ctx), ...mailJobs(ctx), ...paymentJobs(ctx), ...auditJobs(ctx), ...privacyJobs(ctx), ...fiscalJobs(ctx)];
  return {
    ctx,
    jobs,
    async stopConversions(drainTimeoutMs = 10_000) {
      // Their 'back to queued' events still go out, and their last log lines are written.
      queueBroadcaster.close();
      await conversionRunner.shutdown(drainTimeoutMs);
      await conversionLogs.close();
      await workerPool.close();
    },
    async release() {
      await keystores.close();
      await outbox.close();
    },
  };
}
