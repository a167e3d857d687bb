/**
 * The PIX payment waiting for approval, remembered across visits of /plans. It
 * names the account that created it: another account signed in on the same browser never
 * sees it (sign-out also forgets it, stores/session.ts).
 */
import { readJson, write } from '../../stores/storage';

export const PENDING_PAYMENT_KEY = 'aabify-pending-payment';

export interface PendingPayment {
  paymentId: string;
  purchaseId: string;
  timestamp: number;
  /** The buyer; absent in entries written before it was kept. */
  userId?: string;
}

function isPending(v: unknown): v is PendingPayment {
  const p = v as PendingPayment;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof p.paymentId === 'string' &&
    typeof p.purchaseId === 'string' &&
    typeof p.timestamp === 'number' &&
    (p.userId === undefined || typeof p.userId === 'string')
  );
}

/** The entry is for `userId` (an entry without a buyer counts for whoever is signed in). */
export function pendingFor(entry: PendingPayment | undefined, userId: string | undefined): PendingPayment | undefined {
  if (!entry) return undefined;
  if (entry.userId && userId && entry.userId !== userId) return undefined;
  return entry;
}

export const pendingPayment = {
  /** The remembered payment of `userId` (any, when no user is given). */
  read: (userId?: string): PendingPayment | undefined => pendingFor(readJson(PENDING_PAYMENT_KEY, isPending), userId),
  remember: (paymentId: string, purchaseId: string, userId?: string) =>
    write(PENDING_PAYMENT_KEY, { paymentId, purchaseId, timestamp: Date.now(), ...(userId ? { userId } : {}) } satisfies PendingPayment),
  forget: () => write(PENDING_PAYMENT_KEY, null),
  /** Forgets it only when it is this payment (a purchase settled elsewhere). */
  forgetIf: (paymentOrPurchaseId: string) => {
    const p = readJson(PENDING_PAYMENT_KEY, isPending);
    if (p && (p.paymentId === paymentOrPurchaseId || p.purchaseId === paymentOrPurchaseId)) write(PENDING_PAYMENT_KEY, null);
  },
};

/**
 * Whether /plans stays open for a user who already has access: they came to buy more
 * (router state `topUp`), or a PIX payment of theirs is remembered as pending — the page
 * checks it on opening, which it could not do if it sent them away.
 */
export function plansOpenWithAccess(state: { topUp?: boolean } | null | undefined, hasPendingPayment: boolean): boolean {
  return Boolean(state?.topUp) || hasPendingPayment;
}
