/**
 * Every background job's name, one style: `feature:verb`. Stored in agenda_jobs.name; a rename
 * needs a migration of the stored rows (migration 0140 renamed the names of earlier versions).
 */
export const JOBS = {
  conversionRun: 'conversions:run',
  conversionRetention: 'conversions:retention',
  abandonedUploads: 'conversions:abandoned-uploads',
  publicationRun: 'publications:run',
  mailSend: 'mail:send',
  mailSweep: 'mail:sweep',
  planNotices: 'mail:plan-notices',
  paymentsExpire: 'payments:expire',
  auditRetention: 'audit:retention',
  privacyExport: 'privacy:export',
  privacyExportRetention: 'privacy:export-retention',
  privacyFiscalRetention: 'privacy:fiscal-retention',
  fiscalAdvance: 'fiscal:advance',
  fiscalSweep: 'fiscal:sweep',
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS];
