/**
 * The job queue: Agenda 6 on its Postgres backend, in the application's own database.
 * Jobs are locked with FOR UPDATE SKIP LOCKED and announced with LISTEN/NOTIFY, so any number
 * of worker processes share one queue; a job whose process died is re-run once its lock
 * lifetime passes.
 */
import { Agenda } from 'agenda';
import { PostgresBackend, PostgresJobRepository } from '@agendajs/postgres-backend';
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

export function createJobQueue(opts: JobQueueOptions): JobQueue {
  // The tables are created by ensureQueueSchema under the start-up lock: Agenda's own
  // CREATE … IF NOT EXISTS races when processes start together on an empty database.
  const backend = new PostgresBackend({
    poolConfig: { connectionString: opts.databaseUrl, max: POOLS.queue, application_name: opts.applicationName },
    ensureSchema: false,
  });
  const agenda = new Agenda({
    backend,
    name: opts.name,
    processEvery: opts.processEvery ?? 2000,
    defaultLockLifetime: opts.lockLifetimeMs ?? 10 * 60 * 1000,
    maxConcurrency: opts.maxConcurrency ?? 20,
  });
  agenda.on('error', (err: unknown) => opts.logger?.error({ err }, 'job queue error'));
  backends.set(agenda, backend);
  return agenda;
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
  await backends.get(queue)?.disconnect();
  return { timedOut: false, running: 0 };
}
