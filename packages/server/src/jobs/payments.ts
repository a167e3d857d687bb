/**
 * Payment jobs: every minute, pending PIX charges past their expiry are reconciled and
 * cancelled, and hosted payments whose notification may be lost are read back.
 */
import type { AppContext } from '../context.js';
import { expirePendingPayments, reconcileHostedPayments } from '../payments/paymentExpirer.js';
import type { JobDefinition } from './define.js';
import { JOBS } from './names.js';

export function paymentJobs(ctx: Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>): JobDefinition<never>[] {
  return [
    {
      name: JOBS.paymentsExpire,
      every: '1 minute',
      run: async () => {
        await expirePendingPayments(ctx);
        await reconcileHostedPayments(ctx);
      },
    },
  ];
}
