/**
 * Everything a process has built, complete and frozen (compose.ts builds it in dependency
 * order). Routes, job definitions and the socket handlers receive it; everything else declares
 * the few parts it takes (`Pick<AppContext, …>` in commands, an explicit deps object in the
 * services listed here, which never import this file). See docs/architecture.md.
 */
import type { Sequelize } from 'sequelize';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { ServerSecrets } from './secrets.js';
import type { Models } from './models/index.js';
import type { Notifier } from './db/notifications.js';
import type { JobQueue } from './jobs/queue.js';
import type { ServerInstance } from './jobs/instances.js';
import type { RateLimits, Limiter } from './http/rateLimiter.js';
import type { Metrics } from './ops/metrics.js';
import type { Storage } from './storage/index.js';
import type { SettingsService } from './settings/index.js';
import type { AuthService } from './accounts/authService.js';
import type { Mailer } from './mail/notices.js';
import type { PaymentGateway } from './payments/providers/index.js';
import type { KeystoreOpener } from './keystores/opener.js';
import type { LiveAccess } from './realtime/access.js';
import type { WorkerPool } from './conversions/workerPool.js';
import type { ConversionEvents } from './conversions/events.js';
import type { QueueStats } from './conversions/queueStats.js';
import type { ConversionRowCache } from './conversions/rowCache.js';
import type { ConversionLogWriter } from './conversions/logWriter.js';
import type { ConversionFiles } from './conversions/files.js';
import type { QueueBroadcaster } from './conversions/queueBroadcaster.js';
import type { ConversionRunner } from './conversions/runner.js';
import type { PublicationEvents } from './play/publications.js';
import type { PublicationRunner } from './play/publicationRunner.js';
import type { LegalDocuments } from './legal/documents.js';
import type { FiscalNotes } from './fiscal/notes.js';

export interface AppContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly version: string;
  readonly startedAt: Date;
  /** This process among all on the database: id, heartbeat (jobs/instances.ts). */
  readonly instance: ServerInstance;
  readonly secrets: ServerSecrets;

  readonly sequelize: Sequelize;
  /** Every model bound to this context's database (models/index.ts). */
  readonly models: Models;
  /** Cross-process invalidation of what processes cache (db/notifications.ts). */
  readonly notifier: Notifier;
  /** The job queue (jobs/queue.ts); every role enqueues, `all` and `worker` run the jobs. */
  readonly queue: JobQueue;
  /** Uploaded APKs and produced AABs: local disk or S3 (storage/index.ts). */
  readonly storage: Storage;
  /** Every rate limiter, counted in Postgres across processes (http/rateLimiter.ts). */
  readonly rateLimits: RateLimits;
  /** Prometheus figures of this process (ops/metrics.ts). */
  readonly metrics: Metrics;

  /** Typed runtime settings; secrets encrypted at rest (settings/service.ts). */
  readonly settings: SettingsService;
  /** Tokens, passport and sign-in rate limits (accounts/authService.ts). */
  readonly auth: AuthService;
  /** Closes live connections (sockets, event streams) when their user loses rights (realtime/access.ts). */
  readonly liveAccess: LiveAccess;
  /** E-mail: the product's messages through the outbox (mail/notices.ts, mail/outbox.ts). */
  readonly mail: Mailer;
  /** Payment providers: the active one for new charges, and each by name (payments/providers/gateway.ts). */
  readonly payments: PaymentGateway;
  /** Opens uploaded keystores in worker threads, with a time budget, one per user (keystores/opener.ts). */
  readonly keystores: KeystoreOpener;

  /** Conversions: live events (conversions/events.ts). */
  readonly conversionEvents: ConversionEvents;
  /** Queue positions and estimates (conversions/queueStats.ts). */
  readonly conversionStats: QueueStats;
  /** Conversion rows as last committed, for the most polled reads (conversions/rowCache.ts). */
  readonly conversionRows: ConversionRowCache;
  readonly conversionLogs: ConversionLogWriter;
  readonly conversionFiles: ConversionFiles;
  readonly queueBroadcaster: QueueBroadcaster;
  /** Engine threads of this process (conversions/workerPool.ts). */
  readonly workerPool: WorkerPool;
  readonly conversionRunner: ConversionRunner;
  /** Submissions per user (convert, start, bulk). */
  readonly conversionSubmitLimiter: Limiter;

  /** Google Play publications: live events and logs (play/publications.ts), the job's runner. */
  readonly publicationEvents: PublicationEvents;
  readonly publicationRunner: PublicationRunner;
  readonly publishLimiter: Limiter;
  readonly playTestLimiter: Limiter;

  /** Termos de Uso and Política de Privacidade: current versions, cached until one is published (legal/documents.ts). */
  readonly legal: LegalDocuments;
  /** NFS-e of approved purchases, cancelled by refunds (fiscal/notes.ts). */
  readonly fiscal: FiscalNotes;
}
