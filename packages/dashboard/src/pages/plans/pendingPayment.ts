/** The PIX payment waiting for approval, remembered across visits of /plans (spec §2.2). */
import { readJson, write } from '../../stores/storage';

export const PENDING_PAYMENT_KEY = 'aabify-pending-payment';

export interface PendingPayment {
  paymentId: string;
  purchaseId: string;
  timestamp: number;
}

function isPending(v: unknown): v is PendingPayment {
  const p = v as PendingPayment;
  return typeof v === 'object' && v !== null && typeof p.paymentId === 'string' && typeof p.purchaseId === 'string' && typeof p.timestamp === 'number';
}

export const pendingPayment = {
  read: (): PendingPayment | undefined => readJson(PENDING_PAYMENT_KEY, isPending),
  remember: (paymentId: string, purchaseId: string) => write(PENDING_PAYMENT_KEY, { paymentId, purchaseId, timestamp: Date.now() } satisfies PendingPayment),
  forget: () => write(PENDING_PAYMENT_KEY, null),
};
