/**
 * The job queue: Agenda 6 on its Postgres backend, in the application's own database.
 * Jobs are locked with FOR UPDATE SKIP LOCKED and announced with LISTEN/NOTIFY, so any number
 * of worker processes share one queue; a job whose process died is re-run once its lock
 * lifetime passes.
 */
import { Agenda } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
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
}

export type JobQueue = Agenda;

const backends = new WeakMap<JobQueue, PostgresBackend>();

export function createJobQueue(opts: JobQueueOptions): JobQueue {
  const backend = new PostgresBackend({ connectionString: opts.databaseUrl });
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
