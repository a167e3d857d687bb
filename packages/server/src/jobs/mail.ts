/**
 * E-mail jobs: `mail:send` delivers one outbox message (a failed attempt is retried with
 * exponential backoff); `mail:sweep` (every 5 minutes) schedules queued messages that lack a job
 * and drops expired links; `mail:plan-notices` (hourly, so a notice is never a day late; each is
 * sent once per plan period) sends the plan-expiring and plan-expired notices.
 */
import type { AppContext } from '../context.js';
import type { MailSendJobData } from '../mail/outbox.js';
import { purgeEmailLinks } from '../mail/links.js';
import type { JobDefinition } from './define.js';
import { JOBS } from './names.js';

export function mailJobs(ctx: Pick<AppContext, 'mail' | 'models' | 'logger'>): JobDefinition<never>[] {
  const { outbox } = ctx.mail;
  const send: JobDefinition<MailSendJobData> = {
    name: JOBS.mailSend,
    run: (job) => outbox.deliver(job.attrs.data.emailId),
    concurrency: 4,
    removeOnComplete: true,
    retry: { attempts: outbox.maxAttempts, delayMs: outbox.retryDelayMs },
  };
  return [
    send,
    {
      name: JOBS.mailSweep,
      every: '5 minutes',
      run: async () => {
        const result = await outbox.sweep();
        await purgeEmailLinks(ctx.models);
        if (result.scheduled || result.expired) ctx.logger.info(result, JOBS.mailSweep);
      },
    },
    {
      name: JOBS.planNotices,
      every: '1 hour',
      run: async () => {
        const counts = await ctx.mail.planNotices();
        if (counts.expiring || counts.expired) ctx.logger.info(counts, JOBS.planNotices);
      },
    },
  ];
}
