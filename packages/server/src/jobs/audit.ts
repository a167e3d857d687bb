/** Audit jobs: `audit:retention` (hourly: audit/retention.ts) removes events older than the `audit.retentionDays` setting. */
import type { AppContext } from '../context.js';
import { purgeExpiredAuditEvents } from '../audit/retention.js';
import type { JobDefinition } from './define.js';
import { JOBS } from './names.js';

export interface AuditJobsOptions {
  /** How often retention runs (Agenda interval text). */
  retentionEvery?: string;
}

export function auditJobs(ctx: Pick<AppContext, 'sequelize' | 'settings' | 'logger'>, opts: AuditJobsOptions = {}): JobDefinition<never>[] {
  return [{ name: JOBS.auditRetention, every: opts.retentionEvery ?? '1 hour', run: async () => void (await purgeExpiredAuditEvents(ctx)) }];
}
