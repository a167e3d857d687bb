/**
 * Start and stop of one server process: instance lock, database (embedded or DATABASE_URL),
 * migrations, job queue, HTTP. Shutdown runs in the reverse order and lets running jobs reach
 * a safe point first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { VERSION } from '@aabify/shared';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { createLogger, type Logger } from './logger.js';
import { acquireInstanceLock } from './instanceLock.js';
import { loadOrCreateSecrets } from './secrets.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { createSequelize } from './db/database.js';
import { migrateUp } from './db/migrate.js';
import { closeJobQueue, createJobQueue } from './jobs/queue.js';
import { createApp } from './http/app.js';
import { initModels } from './models/index.js';
import { createAuthService, type AuthLimits } from './auth/service.js';
import { RateLimits } from './auth/rateLimiter.js';
import { usePasswordParams, type ScryptParams } from './auth/password.js';
import { createSettingsService } from './settings/index.js';
import { createPaymentGateway } from './payments/index.js';
import { registerPaymentJobs } from './jobs/payments.js';
import { ConversionService, type ConversionServiceOptions } from './conversions/service.js';
import { openStorage } from './storage/index.js';
import { createRealtime } from './realtime/io.js';
import { attachConversionSockets } from './realtime/socket.js';
import { LiveAccess } from './realtime/access.js';
import { KeystoreOpener, type KeystoreOpenerOptions } from './keystores/opener.js';

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
  /** Mercado Pago client tuning, shortened by tests. */
  payments?: { mercadoPago?: { timeoutMs?: number; retries?: number } };
  /** Conversion engine and queue tuning (tests: a slowed-down engine, short retries). */
  conversions?: ConversionServiceOptions;
  /** Keystore workers' time budget and parallelism (tests lower the budget). */
  keystores?: Omit<KeystoreOpenerOptions, 'logger'>;
  /** Sign-in limits other than the defaults (tests). */
  authLimits?: Partial<AuthLimits>;
  /**
   * scrypt cost of new password hashes. Production leaves it unset (OWASP's cost); the test
   * server lowers it so hundreds of sign-ins stay fast. Deliberately no environment variable.
   */
  passwordParams?: ScryptParams;
}

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
    const secrets = await loadOrCreateSecrets(config.dataDir);
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const embedded: EmbeddedDatabase = await startEmbeddedPostgres({
        dir: config.dataDir,
        port: config.embeddedPgPort,
        password: secrets.databasePassword,
        logger,
      });
      cleanups.push(() => embedded.stop());
      databaseUrl = embedded.url;
      logger.info({ port: config.embeddedPgPort }, 'embedded postgres started');
    }
    const sequelize = createSequelize(databaseUrl, logger);
    cleanups.push(() => sequelize.close());
    await sequelize.authenticate();
    const applied = await migrateUp(sequelize, logger);
    if (applied.length) logger.info({ applied }, 'migrations applied');

    usePasswordParams(opts.passwordParams);
    const rateLimits = new RateLimits(databaseUrl, logger);
    cleanups.push(() => rateLimits.close());
    const ctxSecrets = config.jwtSecret ? { ...secrets, jwtSecret: config.jwtSecret } : secrets;
    const models = initModels(sequelize);
    const settings = createSettingsService({ sequelize, config, encryptionKey: ctxSecrets.encryptionKey, logger });
    const ctx: AppContext = {
      config: { ...config, databaseUrl },
      logger,
      sequelize,
      secrets: ctxSecrets,
      models,
      auth: createAuthService({ models, jwtSecret: ctxSecrets.jwtSecret, logger, rateLimits, limits: opts.authLimits }),
      rateLimits,
      settings,
      payments: createPaymentGateway({ config, settings, models, logger, mercadoPago: opts.payments?.mercadoPago }),
      keystores: new KeystoreOpener({ logger, ...opts.keystores }),
      version: VERSION,
      startedAt: new Date(),
    };
    // One start-up line naming the payment provider, or why a configured one cannot be used.
    await ctx.payments.state();
    cleanups.push(() => ctx.keystores.close());

    const queue = createJobQueue({
      databaseUrl,
      name: `${hostname()}:${process.pid}`,
      logger,
      processEvery: opts.queue?.processEvery,
      lockLifetimeMs: opts.queue?.lockLifetimeMs,
    });
    ctx.queue = queue;
    await registerPaymentJobs(ctx, queue);
    const realtime = createRealtime(databaseUrl, logger);
    ctx.liveAccess = new LiveAccess(realtime.io, ctx);
    const conversions = new ConversionService(ctx, storage, realtime.io, {
      ...opts.conversions,
      lockLifetimeMs: opts.queue?.lockLifetimeMs ?? 10 * 60 * 1000,
    });
    ctx.conversions = conversions;
    await conversions.register(queue, config.role !== 'web');
    if (config.role !== 'web') await queue.start();
    else await queue.ready;
    cleanups.push(async () => {
      const result = await closeJobQueue(queue, opts.drainTimeoutMs);
      if (result.timedOut) logger.warn({ running: result.running }, 'jobs still running at shutdown; another process will re-run them');
    });
    // Runs before the queue drains: running conversions go back to the queue, not failed.
    cleanups.push(() => conversions.close(opts.drainTimeoutMs));
    cleanups.push(() => realtime.close());
    if (config.role !== 'web') await conversions.afterStart(queue);

    let http: Server | undefined;
    let url: string | undefined;
    if (config.role !== 'worker') {
      const app = createApp(ctx);
      http = createServer(app);
      realtime.io.attach(http);
      attachConversionSockets(ctx, realtime.io, conversions);
      await new Promise<void>((resolve, reject) => {
        http!.once('error', reject);
        http!.listen(config.port, config.host, () => resolve());
      });
      const addr = http.address() as AddressInfo;
      const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
      url = `http://${shownHost}:${addr.port}`;
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
