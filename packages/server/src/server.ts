/**
 * Start and stop of one server process: instance lock, database (embedded or DATABASE_URL),
 * migrations, job queue, HTTP. Shutdown runs in the reverse order and lets running jobs reach
 * a safe point first.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { compose, type ComposeOptions } from './compose.js';
import { createLogger, type Logger } from './logger.js';
import { acquireInstanceLock } from './instanceLock.js';
import { resolveSecrets } from './secrets.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { createSequelize } from './db/database.js';
import { prepareSchema } from './db/migrate.js';
import { POOLS, applicationName } from './db/connections.js';
import { createNotifier } from './db/notifications.js';
import { openReadLane, type ReadLane } from './db/readLane.js';
import { announceJobs, closeJobQueue, createJobQueue, ensureQueueSchema } from './jobs/queue.js';
import { DEFAULT_INSTANCE_TIMING, ServerInstance, type InstanceTiming } from './jobs/instances.js';
import { defineJobs, scheduleRecurring } from './jobs/define.js';
import { ensureConversionJobs, reclaimOrphanedConversions } from './jobs/conversions.js';
import { ensurePublicationJobs } from './jobs/publications.js';
import { keyRingOf } from './settings/crypto.js';
import { reencryptWithCurrentKey } from './settings/rotation.js';
import { createApp, createOpsApp } from './http/app.js';
import { createLimitedServer, type HttpServerLimits } from './http/serverLimits.js';
import { RateLimits } from './http/rateLimiter.js';
import { usePasswordParams, type ScryptParams } from './accounts/password.js';
import { openStorage } from './storage/index.js';
import { createRealtime } from './realtime/io.js';
import { attachConversionSockets } from './realtime/socket.js';
import type { SocketAddressLimits } from './realtime/addressLimits.js';

export interface RunningServer {
  ctx: AppContext;
  /** The connections apart from the application pool that polls and authentication read through (db/readLane.ts). */
  readLanes: Record<'polls' | 'principals', Pick<ReadLane, 'sequelize'>>;
  http?: Server;
  /** Base URL of the HTTP listener, e.g. http://127.0.0.1:3000 */
  url?: string;
  close(): Promise<void>;
}

export interface StartOptions extends ComposeOptions {
  logger?: Logger;
  /** Time running jobs get to reach a safe point on shutdown. */
  drainTimeoutMs?: number;
  /** Agenda tuning, shortened by tests. */
  queue?: { processEvery?: number; lockLifetimeMs?: number };
  /** Heartbeat of this process's instance row, shortened by tests. */
  instance?: Partial<InstanceTiming>;
  /**
   * scrypt cost of new password hashes. Production leaves it unset (OWASP's cost); the test
   * server lowers it so hundreds of sign-ins stay fast. Deliberately no environment variable.
   */
  passwordParams?: ScryptParams;
  /** The HTTP server's timeouts and header limits (http/serverLimits.ts), shortened by tests. */
  http?: Partial<HttpServerLimits>;
  /** socket.io limits per client address (realtime/addressLimits.ts), changed by tests. */
  socketAddressLimits?: Partial<SocketAddressLimits>;
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
    const readLane = openReadLane(databaseUrl, logger, appName('reads'));
    cleanups.push(() => readLane.close());
    const principalLane = openReadLane(databaseUrl, logger, appName('principals'), POOLS.principals);
    cleanups.push(() => principalLane.close());
    const realtime = createRealtime(databaseUrl, logger, appName('realtime'));
    const composed = compose(
      { config: { ...config, databaseUrl }, logger, secrets, sequelize, notifier, queue, instance, rateLimits, reads: readLane, principalReads: principalLane, storage, io: realtime.io },
      opts,
    );
    const { ctx } = composed;
    cleanups.push(() => composed.release());
    // One start-up line naming the payment provider, or why a configured one cannot be used.
    await ctx.payments.state();
    const runsJobs = config.role !== 'web';
    defineJobs(queue, composed.jobs, { lockLifetimeMs: opts.queue?.lockLifetimeMs ?? DEFAULT_LOCK_LIFETIME_MS, logger });
    // At start: messages kept before SMTP_URL was set (or left by a crash) go out now.
    await ctx.mail.outbox.sweep().catch((err: unknown) => logger.error({ err }, 'mail sweep at start failed'));
    if (runsJobs) {
      instance.onBeat(async () => {
        const taken = await reclaimOrphanedConversions(ctx);
        if (taken.length) logger.warn({ conversions: taken }, 'conversions of a dead instance handed back to the queue');
      });
      await ctx.queueBroadcaster.startPeriodic(async () => {
        await ensureConversionJobs(ctx);
        await ctx.conversionRunner.wakeWaiting();
      });
      await queue.start();
    } else await announceJobs(queue);
    cleanups.push(closeQueue);
    // Cleanups run last-pushed first. Sockets close after the conversions are handed back
    // (their 'back to queued' events still go out), and both before the queue drains.
    cleanups.push(() => realtime.close());
    cleanups.push(() => composed.stopConversions(opts.drainTimeoutMs));
    if (runsJobs) {
      await scheduleRecurring(queue, composed.jobs);
      await ensureConversionJobs(ctx);
      await ensurePublicationJobs(ctx);
    }

    let http: Server | undefined;
    let url: string | undefined;
    {
      // Workers serve only health, ready and metrics (createOpsApp); web roles the whole app.
      const app = config.role === 'worker' ? createOpsApp(ctx) : createApp(ctx);
      http = createLimitedServer(app, logger, opts.http);
      if (config.role !== 'worker') {
        realtime.io.attach(http);
        const sockets = attachConversionSockets(ctx, realtime.io, {
          trustProxy: app.get('trust proxy fn') as (address: string, hop: number) => boolean,
          addressLimits: opts.socketAddressLimits,
        });
        cleanups.push(async () => sockets.close());
      }
      await new Promise<void>((resolve, reject) => {
        http!.once('error', reject);
        http!.listen(config.port, config.host, () => resolve());
      });
      const addr = http.address() as AddressInfo;
      const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
      url = `http://${shownHost}:${addr.port}`;
      ctx.mail.outbox.setServerUrl(url);
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
      readLanes: { polls: readLane, principals: principalLane },
      http,
      url,
      close: () => (closing ??= runCleanups()),
    };
  } catch (err) {
    await runCleanups();
    throw err;
  }
}
