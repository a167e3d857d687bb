/**
 * Conversion jobs: `conversions:run` (one per conversion, leased: conversions/runner.ts),
 * `conversions:retention` (hourly: conversions/retention.ts) and
 * `conversions:abandoned-uploads` (every 5 minutes: conversions/pendingUploads.ts), and the
 * safety nets of processes that run them: a queued conversion whose job was never written (a
 * crash between commit and enqueue) gets one, and the conversions of an instance that stopped
 * beating are handed back to the queue at once instead of when their lock expires.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { AppContext } from '../context.js';
import type { ConversionJobData } from '../conversions/runner.js';
import { purgeExpiredConversions } from '../conversions/retention.js';
import { purgeAbandonedUploads } from '../conversions/pendingUploads.js';
import { enqueueFor, itemsWithoutJob, type JobDefinition } from './define.js';
import { ServerInstance } from './instances.js';
import { JOBS } from './names.js';
import type { JobQueue } from './queue.js';

export interface ConversionJobsOptions {
  /** How often the retention job runs (Agenda interval text). */
  retentionEvery?: string;
  /** How often uploads never started are looked for and removed (Agenda interval text). */
  abandonedUploadsEvery?: string;
}

type Deps = Pick<AppContext, 'conversionRunner' | 'sequelize' | 'models' | 'settings' | 'conversionFiles' | 'logger' | 'storage'>;

export function conversionJobs(ctx: Deps, opts: ConversionJobsOptions = {}): JobDefinition<never>[] {
  const run: JobDefinition<ConversionJobData> = {
    name: JOBS.conversionRun,
    run: (job) => ctx.conversionRunner.handle(job),
    concurrency: 64,
    lease: true,
    removeOnComplete: true,
  };
  return [
    run,
    { name: JOBS.conversionRetention, every: opts.retentionEvery ?? '1 hour', run: async () => void (await purgeExpiredConversions(ctx)) },
    { name: JOBS.abandonedUploads, every: opts.abandonedUploadsEvery ?? '5 minutes', run: async () => void (await purgeAbandonedUploads(ctx, ctx.storage)) },
  ];
}

/** Writes the job of every queued or processing conversion that lacks one; returns how many. */
export async function ensureConversionJobs(ctx: { sequelize: Sequelize; queue: JobQueue }): Promise<number> {
  const ids = await itemsWithoutJob(ctx.sequelize, { table: 'conversions', statuses: ['queued', 'processing'], name: JOBS.conversionRun, key: 'conversionId' });
  for (const id of ids) await enqueueFor(ctx.queue, JOBS.conversionRun, 'conversionId', id);
  return ids.length;
}

/**
 * Conversions whose instance stopped beating (its process died): their job's lock is released at
 * once instead of after its lifetime, so a live worker resumes them now (jobs/claim.ts). Returns
 * their ids.
 */
export async function reclaimOrphanedConversions(ctx: { sequelize: Sequelize; instance: Pick<ServerInstance, 'timing'> }): Promise<string[]> {
  const rows = await ctx.sequelize.query<{ id: string }>(
    `UPDATE agenda_jobs j SET locked_at = NULL, next_run_at = now()
       FROM conversions c
      WHERE c.status = 'processing' AND j.name = :name AND j.data->>'conversionId' = c.id::text
        AND j.locked_at IS NOT NULL
        AND c."processingStartedAt" < now() - make_interval(secs => :staleAfterMs / 1000.0)
        AND NOT ${ServerInstance.aliveSql('c."workerName"')}
      RETURNING c.id`,
    { replacements: { name: JOBS.conversionRun, staleAfterMs: ctx.instance.timing.staleAfterMs }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}
