/**
 * The one way a background job is defined and run. A definition names its job (`feature:verb`,
 * jobs/names.ts), says how many run at once in a process and which processes run it, and gives
 * its handler. Three policies cover every job of the product:
 *
 * - `lease`: the job's lock is touched while the handler runs (a quarter of the lock lifetime),
 *   so a process that dies leaves a lock that expires and the job runs again elsewhere. Jobs that
 *   run long (conversions, publications) take it, with their attempts counted on their own row
 *   (jobs/claim.ts).
 * - `retry`: a failed run is tried again after an exponential backoff, up to `attempts` runs
 *   (Agenda counts them): e-mail deliveries.
 * - `every`: a recurring job, one per database (Agenda keeps one row per name).
 */
import { exponential, type Job } from 'agenda';
import type { Sequelize } from 'sequelize';
import { QueryTypes } from 'sequelize';
import type { Logger } from '../logger.js';
import type { JobQueue } from './queue.js';

export interface JobDefinition<D = unknown> {
  name: string;
  run(job: Job<D>): Promise<void>;
  /** Runs of this job at once in one process (Agenda's default otherwise). */
  concurrency?: number;
  /** Keep the job's lock alive while it runs (long jobs whose process may die). */
  lease?: boolean;
  /** Retry a failed run with exponential backoff, `attempts` runs in all. */
  retry?: { attempts: number; delayMs: number };
  /** A recurring job: Agenda interval text ('5 minutes'); first run at once unless `skipImmediate`. */
  every?: string;
  skipImmediate?: boolean;
  /** Remove the row once done (one-off jobs made per item). */
  removeOnComplete?: boolean;
}

export interface JobRunOptions {
  /** A lock not touched for this long belongs to a dead process. */
  lockLifetimeMs: number;
  logger: Logger;
}

/** How often a leased job touches its lock: four times per lifetime, never more than 5 times a second. */
export function leaseTouchIntervalMs(lockLifetimeMs: number): number {
  return Math.max(200, Math.floor(lockLifetimeMs / 4));
}

/** Runs `fn` while the job's lock is kept alive. */
export async function withLease<T>(job: Job<unknown>, opts: JobRunOptions, fn: () => Promise<T>): Promise<T> {
  const touch = setInterval(() => {
    job.touch().catch((err: unknown) => opts.logger.warn({ err, job: job.attrs.name }, 'job lock not extended'));
  }, leaseTouchIntervalMs(opts.lockLifetimeMs));
  touch.unref();
  try {
    return await fn();
  } finally {
    clearInterval(touch);
  }
}

/** Defines every job on the queue; call before queue.start(). */
export function defineJobs(queue: JobQueue, definitions: readonly JobDefinition<never>[], opts: JobRunOptions): void {
  for (const d of definitions as readonly JobDefinition<unknown>[]) {
    const handler = d.lease ? (job: Job<unknown>) => withLease(job, opts, () => d.run(job)) : (job: Job<unknown>) => d.run(job);
    queue.define(d.name, handler, {
      ...(d.concurrency !== undefined ? { concurrency: d.concurrency } : {}),
      ...(d.lease ? { lockLifetime: opts.lockLifetimeMs, lockLimit: 0 } : {}),
      ...(d.removeOnComplete ? { removeOnComplete: true } : {}),
      ...(d.retry ? { backoff: exponential({ delay: d.retry.delayMs, factor: 2, maxRetries: d.retry.attempts - 1, jitter: 0.1 }) } : {}),
    });
  }
}

/** Writes the recurring jobs' rows (after queue.start(), in processes that run jobs). */
export async function scheduleRecurring(queue: JobQueue, definitions: readonly JobDefinition<never>[]): Promise<void> {
  for (const d of definitions) {
    if (d.every) await queue.every(d.every, d.name, {}, { skipImmediate: d.skipImmediate ?? false });
  }
}

/** Queues the job of one item (`{ [key]: id }`) to run now; idempotent: one job per item. */
export async function enqueueFor(queue: JobQueue, name: string, key: string, id: string): Promise<void> {
  await queue.create(name, { [key]: id }).unique({ [`data.${key}`]: id }).schedule(new Date()).save();
}

/** Removes the job of one item, if any. */
export async function cancelJobFor(queue: JobQueue, name: string, key: string, id: string): Promise<void> {
  await queue.cancel({ name, data: { [key]: id } });
}

/**
 * Ids of rows in `table` whose status is one of `statuses` but which have no job `name` (a crash
 * between the commit and the enqueue): the safety net writes them one.
 */
export async function itemsWithoutJob(sequelize: Sequelize, spec: { table: string; statuses: readonly string[]; name: string; key: string }): Promise<string[]> {
  const rows = await sequelize.query<{ id: string }>(
    `SELECT t.id FROM ${spec.table} t WHERE t.status IN (:statuses)
       AND NOT EXISTS (SELECT 1 FROM agenda_jobs j WHERE j.name = :name AND j.data->>:key = t.id::text)`,
    { replacements: { statuses: spec.statuses, name: spec.name, key: spec.key }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}
