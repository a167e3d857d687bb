/** Publication jobs: `publications:run`, one per publication, leased (play/publicationRunner.ts). */
import type { Sequelize } from 'sequelize';
import type { AppContext } from '../context.js';
import type { PublicationJobData } from '../play/publications.js';
import { enqueueFor, itemsWithoutJob, type JobDefinition } from './define.js';
import { JOBS } from './names.js';
import type { JobQueue } from './queue.js';

export function publicationJobs(ctx: Pick<AppContext, 'publicationRunner'>): JobDefinition<never>[] {
  const run: JobDefinition<PublicationJobData> = {
    name: JOBS.publicationRun,
    run: (job) => ctx.publicationRunner.handle(job),
    concurrency: 8,
    lease: true,
    removeOnComplete: true,
  };
  return [run];
}

/** A queued publication whose job was never written (crash between commit and enqueue) gets one. */
export async function ensurePublicationJobs(ctx: { sequelize: Sequelize; queue: JobQueue }): Promise<number> {
  const ids = await itemsWithoutJob(ctx.sequelize, { table: 'publications', statuses: ['queued', 'processing'], name: JOBS.publicationRun, key: 'publicationId' });
  for (const id of ids) await enqueueFor(ctx.queue, JOBS.publicationRun, 'publicationId', id);
  return ids.length;
}
