/**
 * NFS-e jobs (docs/nfse.md): `fiscal:advance` moves one note on (request, read, cancel), runs
 * again later while the provider is still working, and retries a failure without an answer with
 * exponential backoff; `fiscal:sweep` (every minute) gives a job to any note under way without one.
 */
import type { AppContext } from '../context.js';
import type { FiscalAdvanceJobData } from '../fiscal/notes.js';
import type { JobDefinition } from './define.js';
import { JOBS } from './names.js';

export function fiscalJobs(ctx: Pick<AppContext, 'fiscal' | 'logger'>): JobDefinition<never>[] {
  const advance: JobDefinition<FiscalAdvanceJobData> = {
    name: JOBS.fiscalAdvance,
    concurrency: 2,
    removeOnComplete: true,
    retry: { attempts: ctx.fiscal.maxAttempts, delayMs: ctx.fiscal.retryDelayMs },
    run: async (job) => {
      const next = await ctx.fiscal.advance(job.attrs.data.noteId);
      // Still under way at the provider: this same job runs again then (it is kept, not removed).
      if (next) job.schedule(next);
    },
  };
  return [
    advance,
    {
      name: JOBS.fiscalSweep,
      every: '1 minute',
      run: async () => {
        const queued = await ctx.fiscal.sweep();
        if (queued) ctx.logger.info({ queued }, JOBS.fiscalSweep);
      },
    },
  ];
}
