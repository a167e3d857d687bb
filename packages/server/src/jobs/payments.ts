/** Payment jobs: every minute, pending PIX charges past their expiry are reconciled and cancelled. */
import type { AppContext } from '../context.js';
import type { JobQueue } from './queue.js';
import { expirePendingPayments } from '../payments/paymentExpirer.js';

export const PAYMENTS_EXPIRE_JOB = 'payments:expire';

export async function registerPaymentJobs(ctx: AppContext, queue: JobQueue): Promise<void> {
  queue.define(PAYMENTS_EXPIRE_JOB, async () => {
    await expirePendingPayments(ctx);
  });
  await queue.every('1 minute', PAYMENTS_EXPIRE_JOB);
}
