/**
 * The job queue: Agenda 6 on its Postgres backend, in the application's own database.
 * Jobs are locked with FOR UPDATE SKIP LOCKED and announced with LISTEN/NOTIFY, so any number
 * of worker processes share one queue; a job whose process died is re-run once its lock
 * lifetime passes.
 */
import { Agenda } from 'agenda';
import { PostgresBackend, PostgresJobRepository, PostgresNotificationChannel } from '@agendajs/postgres-backend';
import type pg from 'pg';
import { POOLS } from '../db/connections.js';
import type { Logger } from '../logger.js';

export interface JobQueueOptions {
  databaseUrl: string;
  /** Identifies this process in the jobs table (lastModifiedBy). */
  name: string;
  logger?: Logger;
  processEvery?: number;
  /** A lock older than this is considered abandoned by a dead process. */
  lockLifetimeMs?: number;
  maxConcurrency?: number;
  /** Names the queue's connections in pg_stat_activity (db/connections.ts). */
  applicationName?: string;
}

export type JobQueue = Agenda;

const backends = new WeakMap<JobQueue, PostgresBackend>();
const wakeChannels = new WeakMap<JobQueue, JobWakeChannel>();

/**
 * Agenda's LISTEN/NOTIFY channel without its job-state messages. Agenda announces a saved job
 * (processors everywhere pick it up at once: kept) and also publishes every run's start,
 * success and completion for `agenda.on(...)` listeners in other processes — three NOTIFYs per
 * run that nothing here listens to (bench/README.md counts statements per conversion). The pool
 * is the backend's, known once it has connected (before Agenda connects the channel).
 */
class JobWakeChannel extends PostgresNotificationChannel {
  constructor(private readonly backendPool: () => pg.Pool) {
    super({ reconnect: { enabled: true } });
  }

  override async connect(): Promise<void> {
    this.setPool(this.backendPool());
    await super.connect();
  }

  override async publishState(): Promise<void> {}
}

export function createJobQueue(opts: JobQueueOptions): JobQueue {
  // The tables are created by ensureQueueSchema under the start-up lock: Agenda's own
  // CREATE … IF NOT EXISTS races when processes start together on an empty database.
  const backend = new PostgresBackend({
    poolConfig: { connectionString: opts.databaseUrl, max: POOLS.queue, application_name: opts.applicationName },
    ensureSchema: false,
    disableNotifications: true,
  });
  const wake = new JobWakeChannel(() => (backend.repository as PostgresJobRepository).getPool());
  const agenda = new Agenda({
    backend,
    notificationChannel: wake,
    name: opts.name,
    processEvery: opts.processEvery ?? 2000,
    defaultLockLifetime: opts.lockLifetimeMs ?? 10 * 60 * 1000,
    maxConcurrency: opts.maxConcurrency ?? 20,
  });
  agenda.on('error', (err: unknown) => opts.logger?.error({ err }, 'job queue error'));
  backends.set(agenda, backend);
  wakeChannels.set(agenda, wake);
  return agenda;
}

/**
 * For a process that saves jobs but runs none (ROLE=web): connects the wake-up channel that
 * `queue.start()` connects in processing roles. Agenda announces a saved job only on a connected
 * channel; without it, a conversion submitted to a web process waited for a worker's next
 * polling pass (up to `processEvery`, 2 s) before it started.
 */
export async function announceJobs(queue: JobQueue): Promise<void> {
  await queue.ready;
  await wakeChannels.get(queue)?.connect();
}

/** Creates or updates Agenda's tables; call under the start-up lock (db/migrate.ts withStartupLock). */
export async function ensureQueueSchema(queue: JobQueue): Promise<void> {
  const backend = backends.get(queue);
  if (!backend) throw new Error('not a queue made by createJobQueue');
  // A repository on the backend's own pool (not closed by it) with ensureSchema on.
  await new PostgresJobRepository({ pool: (backend.repository as PostgresJobRepository).getPool(), ensureSchema: true }).connect();
}

/** Whether Agenda's tables answer through the queue's own pool (for /api/ready). */
export async function isQueueReachable(queue: JobQueue | undefined): Promise<boolean> {
  const backend = queue && backends.get(queue);
  if (!backend) return false;
  try {
    await (backend.repository as PostgresJobRepository).getPool().query('SELECT 1 FROM agenda_jobs LIMIT 1');
    return true;
  } catch {
    return false;
  }
}

/** Whether the queue is started and processing (for /api/health). */
export function isQueueRunning(queue: JobQueue | undefined): boolean {
  return queue?.isActiveJobProcessor() ?? false;
}

/**
 * Stops the queue and closes its connections. A processing queue first lets running jobs
 * finish (up to drainTimeoutMs); jobs still running then keep their lock and are re-run by
 * another process once the lock lifetime passes.
 */
export async function closeJobQueue(queue: JobQueue, drainTimeoutMs = 30000): Promise<{ timedOut: boolean; running: number }> {
  if (queue.isActiveJobProcessor()) {
    const result = await queue.drain({ timeout: drainTimeoutMs });
    return { timedOut: result.timedOut, running: result.running };
  }
  await wakeChannels.get(queue)?.disconnect();
  await backends.get(queue)?.disconnect();
  return { timedOut: false, running: 0 };
}
