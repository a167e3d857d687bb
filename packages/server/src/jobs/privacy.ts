/**
 * "Meus dados" jobs: `privacy:export` builds one account's export (privacy/dataExport.ts);
 * `privacy:export-retention` (hourly) deletes the files of expired exports and queues pending
 * ones that lost their job; `privacy:fiscal-retention` (daily) ends the fiscal record of deleted
 * accounts past its legal period (privacy/fiscalRetention.ts).
 */
import type { AppContext } from '../context.js';
import { buildDataExport, expireDataExports } from '../privacy/dataExport.js';
import { endExpiredFiscalRecords } from '../privacy/fiscalRetention.js';
import type { JobDefinition } from './define.js';
import { JOBS } from './names.js';

export function privacyJobs(ctx: Pick<AppContext, 'models' | 'storage' | 'settings' | 'mail' | 'logger' | 'sequelize' | 'queue'>): JobDefinition<never>[] {
  const build: JobDefinition<{ exportId: string }> = {
    name: JOBS.privacyExport,
    run: (job) => buildDataExport(ctx, job.attrs.data.exportId),
    concurrency: 1,
    removeOnComplete: true,
  };
  return [
    build,
    {
      name: JOBS.privacyExportRetention,
      every: '1 hour',
      run: async () => {
        const result = await expireDataExports(ctx);
        if (result.expired || result.requeued) ctx.logger.info(result, JOBS.privacyExportRetention);
      },
    },
    { name: JOBS.privacyFiscalRetention, every: '1 day', run: async () => void (await endExpiredFiscalRecords(ctx)) },
  ];
}
