import type { Sequelize } from 'sequelize';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { JobQueue } from './jobs/queue.js';
import type { ServerSecrets } from './secrets.js';
import type { Models } from './models/index.js';
import type { AuthService } from './accounts/authService.js';
import type { RateLimits } from './http/rateLimiter.js';
import type { SettingsService } from './settings/index.js';
import type { PaymentGateway } from './payments/providers/index.js';
import type { ConversionService } from './conversions/service.js';
import type { Mailer } from './mail/notices.js';
import type { LiveAccess } from './realtime/access.js';
import type { KeystoreOpener } from './keystores/opener.js';
import type { ServerInstance } from './jobs/instances.js';
import type { Metrics } from './ops/metrics.js';
import type { PublicationService } from './play/service.js';
import type { Notifier } from './db/notifications.js';

/** What every route, command and job gets: built once at start, passed explicitly. */
export interface AppContext {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  secrets: ServerSecrets;
  /** Every model bound to this context's database (models/index.ts). */
  models: Models;
  /** Tokens, passport and sign-in rate limits (accounts/authService.ts). */
  auth: AuthService;
  /** Every rate limiter, counted in Postgres across processes (http/rateLimiter.ts). */
  rateLimits: RateLimits;
  /** Cross-process invalidation of what processes cache (db/notifications.ts). */
  notifier?: Notifier;
  /** Typed runtime settings; secrets encrypted at rest (settings/service.ts). */
  settings: SettingsService;
  /** Payment providers: the active one for new charges, and each by name (payments/providers/gateway.ts). */
  payments: PaymentGateway;
  /** E-mail: the product's messages through the outbox (mail/notices.ts, mail/outbox.ts). */
  mail: Mailer;
  /** Present in roles `all` and `worker` (web-only processes enqueue through it too). */
  queue?: JobQueue;
  /** Opens uploaded keystores in worker threads, with a time budget, one per user (keystores/opener.ts). */
  keystores: KeystoreOpener;
  /** Conversions: storage, worker pool, job runner, live events (conversions/service.ts). */
  conversions?: ConversionService;
  /** Publications to Google Play: jobs, live events, logs (play/service.ts). */
  publications?: PublicationService;
  /** Closes live connections (sockets, event streams) when their user loses rights (realtime/access.ts). */
  liveAccess?: LiveAccess;
  version: string;
  startedAt: Date;
  /** This process among all on the database: id, heartbeat (jobs/instances.ts). */
  instance: ServerInstance;
  /** Prometheus figures of this process (ops/metrics.ts). */
  metrics?: Metrics;
}
