/**
 * Start and stop of one server process: instance lock, database (embedded or DATABASE_URL),
 * migrations, job queue, HTTP. Shutdown runs in the reverse order and lets running jobs reach
 * a safe point first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { KEYSTORE_LIMITS, VERSION } from '@aabify/shared';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { createLogger, type Logger } from './logger.js';
import { acquireInstanceLock } from './instanceLock.js';
import { resolveSecrets } from './secrets.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { createSequelize } from './db/database.js';
import { prepareSchema } from './db/migrate.js';
import { applicationName } from './db/connections.js';
import { createNotifier } from './db/notifications.js';
import { closeJobQueue, createJobQueue, ensureQueueSchema } from './jobs/queue.js';
import { DEFAULT_INSTANCE_TIMING, ServerInstance, type InstanceTiming } from './jobs/instances.js';
import { keyRingOf } from './settings/crypto.js';
import { reencryptWithCurrentKey } from './settings/rotation.js';
import { createMetrics } from './ops/metrics.js';
import { createApp, createOpsApp } from './http/app.js';
import { initModels } from './models/index.js';
import { createAuthService, type AuthLimits } from './accounts/authService.js';
import { RateLimits } from './http/rateLimiter.js';
import { usePasswordParams, type ScryptParams } from './accounts/password.js';
import { createSettingsService } from './settings/index.js';
import { createPaymentGateway } from './payments/providers/index.js';
import { registerPaymentJobs } from './jobs/payments.js';
import { ConversionService, type ConversionServiceOptions } from './conversions/service.js';
import { openStorage } from './storage/index.js';
import { createRealtime } from './realtime/io.js';
import { attachConversionSockets } from './realtime/socket.js';
import { Outbox, type OutboxOptions } from './mail/outbox.js';
import { Mailer } from './mail/notices.js';
import { registerMailJobs } from './jobs/mail.js';
import { LiveAccess } from './realtime/access.js';
import { KeystoreOpener, type KeystoreOpenerOptions } from './keystores/opener.js';
import { PublicationService } from './play/service.js';

export interface RunningServer {
  ctx: AppContext;
  http?: Server;
  /** Base URL of the HTTP listener, e.g. http://127.0.0.1:3000 */
  url?: string;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Time running jobs get to reach a safe point on shutdown. */
  drainTimeoutMs?: number;
  /** Agenda tuning, shortened by tests. */
  queue?: { processEvery?: number; lockLifetimeMs?: number };
  /** Heartbeat of this process's instance row, shortened by tests. */
  instance?: Partial<InstanceTiming>;
  /** Mercado Pago client tuning, shortened by tests. */
  payments?: { mercadoPago?: { timeoutMs?: number; retries?: number } };
  /** Conversion engine and queue tuning (tests: a slowed-down engine, short retries). */
  conversions?: ConversionServiceOptions;
  /** E-mail delivery tuning (tests: short retry delays). */
  mail?: OutboxOptions;
  /** Keystore workers' time budget and parallelism (tests lower the budget). */
  keystores?: Omit<KeystoreOpenerOptions, 'logger'>;
  /** Sign-in limits other than the defaults (tests). */
  authLimits?: Partial<AuthLimits>;
  /**
   * scrypt cost of new password hashes. Production leaves it unset (OWASP's cost); the test
   * server lowers it so hundreds of sign-ins stay fast. Deliberately no environment variable.
   */
  passwordParams?: ScryptParams;
  /** Google Play publishing tuning (tests: small upload chunks). */
  play?: { uploadChunkBytes?: number };
}

/** A job lock not touched for this long belongs to a dead process (runners touch it every quarter). */
const DEFAULT_LOCK_LIFETIME_MS = 30_000;

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  await mkdir(config.dataDir, { recursive: true });
  const releaseLock = await acquireInstanceLock(config.dataDir);
  const cleanups: Array<() => Promise<void>> = [releaseLock];
  const runCleanups = async () => {
    for (const fn of cleanups.reverse()) {
      await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
    }
    cleanups.length = 0;
  };
  try {
    // First: a store that cannot be reached stops the start before any database work.
    const storage = await openStorage(config, logger);
    const secrets = await resolveSecrets(config);
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const embedded: EmbeddedDatabase = await startEmbeddedPostgres({
        dir: config.dataDir,
        port: config.embeddedPgPort,
        password: secrets.databasePassword!,
        logger,
      });
      cleanups.push(() => embedded.stop());
      databaseUrl = embedded.url;
      logger.info({ port: config.embeddedPgPort }, 'embedded postgres started');
    }
    const instance = new ServerInstance(config.role, logger, { ...DEFAULT_INSTANCE_TIMING, ...opts.instance });
    // Every connection of this process is named after it in pg_stat_activity (db/connections.ts).
    const appName = (pool: Parameters<typeof applicationName>[2]) => applicationName(config.role, instance.short, pool);
    const sequelize = createSequelize(databaseUrl, logger, { poolMax: config.databasePoolMax, applicationName: appName('db') });
    cleanups.push(() => sequelize.close());
    await sequelize.authenticate();

    const queue = createJobQueue({
      databaseUrl,
      name: instance.id,
      logger,
      processEvery: opts.queue?.processEvery,
      lockLifetimeMs: opts.queue?.lockLifetimeMs ?? DEFAULT_LOCK_LIFETIME_MS,
      applicationName: appName('queue'),
    });
    // Closes the queue once: at its place in the shutdown order below, or here if the start fails before it.
    let queueClosed = false;
    const closeQueue = async () => {
      if (queueClosed) return;
      queueClosed = true;
      const result = await closeJobQueue(queue, opts.drainTimeoutMs);
      if (result.timedOut) logger.warn({ running: result.running }, 'jobs still running at shutdown; another process will re-run them');
    };
    cleanups.push(closeQueue);
    // Schema changes of every process starting on this database, one process at a time.
    const applied = await prepareSchema(sequelize, logger, async () => {
      await ensureQueueSchema(queue);
      await reencryptWithCurrentKey(sequelize, keyRingOf(secrets), logger);
    });
    if (applied.length) logger.info({ applied }, 'migrations applied');
    await instance.start(sequelize);
    cleanups.push(() => instance.stop());

    const notifier = await createNotifier({ databaseUrl, applicationName: appName('notifications'), sequelize, logger });
    cleanups.push(() => notifier.close());
    usePasswordParams(opts.passwordParams);
    const rateLimits = new RateLimits(databaseUrl, logger, { applicationName: appName('ratelimits') });
    cleanups.push(() => rateLimits.close());
    const models = initModels(sequelize);
    const settings = createSettingsService({ sequelize, config, keys: keyRingOf(secrets), logger, notifier });
    // A level an admin sets on any process applies on all. Without a stored one the start level
    // (LOG_LEVEL) stays: a reload of every setting (e.g. after a reconnect) must not impose the
    // setting's default.
    const startLevel = logger.level;
    settings.onChange((key) => {
      if (key !== undefined && key !== 'logging.level') return;
      void (async () => {
        const stored = (await settings.stored('logging.level')) === 'ok';
        logger.level = (stored ? await settings.get('logging.level') : null) ?? startLevel;
      })().catch((err: unknown) => logger.warn({ err }, 'logging level not reloaded'));
    });
    const outbox = new Outbox({ config, models, sequelize, logger, keys: keyRingOf(secrets) }, opts.mail);
    cleanups.push(() => outbox.close());
    const mail = new Mailer({ models, sequelize, logger }, outbox);
    const ctx: AppContext = {
      config: { ...config, databaseUrl },
      logger,
      sequelize,
      secrets,
      models,
      auth: createAuthService({ models, jwtSecret: secrets.jwtSecret, jwtSecretPrevious: secrets.jwtSecretPrevious, logger, rateLimits, limits: opts.authLimits, notifier }),
      notifier,
      rateLimits,
      settings,
      payments: createPaymentGateway({
        config,
        settings,
        models,
        logger,
        mercadoPago: opts.payments?.mercadoPago,
        onProviderFailure: (err) => void mail.notifyAdmins('payment_provider_failed', { Erro: err.message, Tipo: err.kind }),
        onUnusable: (state) => void mail.notifyAdmins('payment_provider_unusable', { Motivo: state.reason }),
      }),
      mail,
      keystores: new KeystoreOpener({
        logger,
        // One keystore operation per user across every process; the window outlives an operation's budget.
        perUser: rateLimits.limiter('keystore-operations', { points: 1, windowMs: KEYSTORE_LIMITS.openBudgetMs + 20_000 }, { blockInMemory: false }),
        ...opts.keystores,
      }),
      version: VERSION,
      startedAt: new Date(),
      instance,
    };
    // One start-up line naming the payment provider, or why a configured one cannot be used.
    await ctx.payments.state();
    cleanups.push(() => ctx.keystores.close());
    ctx.metrics = createMetrics(ctx);

    ctx.queue = queue;
    await registerPaymentJobs(ctx, queue);
    await registerMailJobs(ctx, queue);
    const realtime = createRealtime(databaseUrl, logger, appName('realtime'));
    ctx.liveAccess = new LiveAccess(realtime.io, ctx);
    const conversions = new ConversionService(ctx, storage, realtime.io, {
      ...opts.conversions,
      lockLifetimeMs: opts.queue?.lockLifetimeMs ?? DEFAULT_LOCK_LIFETIME_MS,
      instance,
    });
    ctx.conversions = conversions;
    await conversions.register(queue, config.role !== 'web');
    ctx.publications = new PublicationService(ctx, storage, realtime.io, { ...opts.play, lockLifetimeMs: opts.queue?.lockLifetimeMs ?? DEFAULT_LOCK_LIFETIME_MS });
    ctx.publications.register(queue);
    if (config.role !== 'web') await queue.start();
    else await queue.ready;
    cleanups.push(closeQueue);
    // Cleanups run last-pushed first. Sockets close after the conversions are handed back
    // (their 'back to queued' events still go out), and both before the queue drains.
    cleanups.push(() => realtime.close());
    cleanups.push(() => conversions.close(opts.drainTimeoutMs));
    if (config.role !== 'web') await conversions.afterStart(queue);
    if (config.role !== 'web') await ctx.publications.afterStart();

    let http: Server | undefined;
    let url: string | undefined;
    {
      // Workers serve only health, ready and metrics (createOpsApp); web roles the whole app.
      const app = config.role === 'worker' ? createOpsApp(ctx) : createApp(ctx);
      http = createServer(app);
      if (config.role !== 'worker') {
        realtime.io.attach(http);
        attachConversionSockets(ctx, realtime.io, conversions, { trustProxy: app.get('trust proxy fn') as (address: string, hop: number) => boolean });
      }
      await new Promise<void>((resolve, reject) => {
        http!.once('error', reject);
        http!.listen(config.port, config.host, () => resolve());
      });
      const addr = http.address() as AddressInfo;
      const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
      url = `http://${shownHost}:${addr.port}`;
      outbox.setServerUrl(url);
      const server = http;
      cleanups.push(
        () =>
          new Promise<void>((resolve) => {
            // Stop taking requests; idle keep-alive sockets go now, busy ones when done.
            server.close(() => resolve());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 5000).unref();
          }),
      );
    }
    let closing: Promise<void> | undefined;
    return {
      ctx,
      http,
      url,
      close: () => (closing ??= runCleanups()),
    };
  } catch (err) {
    await runCleanups();
    throw err;
  }
}
