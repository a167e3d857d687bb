/**
 * E-mail jobs: `mail:send` delivers one outbox message (Agenda retries a failed attempt with
 * exponential backoff); `mail:sweep` (at start and every 5 minutes) schedules queued messages that lack a
 * job and drops expired links; `mail:plan-notices` (hourly, so a notice is never a day late;
 * each is sent once per plan period) sends the plan-expiring and plan-expired notices.
 */
import { exponential } from 'agenda';
import type { AppContext } from '../context.js';
import type { JobQueue } from './queue.js';
import { MAIL_SEND_JOB, type MailSendJobData } from '../mail/outbox.js';
import type { Mailer } from '../mail/notices.js';
import { purgeEmailLinks } from '../mail/links.js';

export const MAIL_SWEEP_JOB = 'mail:sweep';
export const MAIL_PLAN_NOTICES_JOB = 'mail:plan-notices';

export async function registerMailJobs(ctx: AppContext & { mail: Mailer }, queue: JobQueue): Promise<void> {
  const { outbox } = ctx.mail;
  outbox.attachQueue(queue);
  queue.define<MailSendJobData>(MAIL_SEND_JOB, (job) => outbox.deliver(job.attrs.data.emailId), {
    concurrency: 4,
    removeOnComplete: true,
    backoff: exponential({ delay: outbox.retryDelayMs, factor: 2, maxRetries: outbox.maxAttempts - 1, jitter: 0.1 }),
  });
  queue.define(MAIL_SWEEP_JOB, async () => {
    const result = await outbox.sweep();
    await purgeEmailLinks(ctx.models);
    if (result.scheduled || result.expired) ctx.logger.info(result, 'mail:sweep');
  });
  queue.define(MAIL_PLAN_NOTICES_JOB, async () => {
    const counts = await ctx.mail.planNotices();
    if (counts.expiring || counts.expired) ctx.logger.info(counts, 'mail:plan-notices');
  });
  await queue.every('5 minutes', MAIL_SWEEP_JOB);
  await queue.every('1 hour', MAIL_PLAN_NOTICES_JOB);
  // At start too: messages kept before SMTP_URL was set (or left by a crash) go out now.
  await outbox.sweep().catch((err: unknown) => ctx.logger.error({ err }, 'mail sweep at start failed'));
}
