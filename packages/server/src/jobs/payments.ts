/** Payment jobs: every minute, pending PIX charges past their expiry are reconciled and cancelled. */
import type { AppContext } from '../context.js';
import { expirePendingPayments } from '../payments/paymentExpirer.js';
import type { JobDefinition } from './define.js';
import { JOBS } from './names.js';

export function paymentJobs(ctx: Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail'>): JobDefinition<never>[] {
  return [{ name: JOBS.paymentsExpire, every: '1 minute', run: async () => void (await expirePendingPayments(ctx)) }];
}
