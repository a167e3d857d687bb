/**
 * Polls a PIX payment on the schedule of lib/pixPolling until it is approved,
 * rejected, cancelled or expired, the attempts run out, or the server says it does not exist.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PAYMENT_MESSAGES, PIX_POLLING, type ApiPixPayment, type PaymentStatus } from '@aabify/shared';
import { isApiRequestError } from '../../api/client';
import { plansApi } from '../../api/plans';
import { nextPixPoll, type PollOutcome } from '../../lib/pixPolling';
import { toast } from '../../stores/toasts';

export type PixPhase = 'idle' | 'polling' | 'approved' | 'rejected' | 'cancelled' | 'expired' | 'timeout' | 'not_found';

export interface PixPollingState {
  phase: PixPhase;
  attempts: number;
  /** The delay before the next poll (ms), for display and tests. */
  nextDelay: number | null;
}

export const PIX_PHASE_MESSAGES: Partial<Record<PixPhase, string>> = {
  rejected: PAYMENT_MESSAGES.rejected,
  cancelled: PAYMENT_MESSAGES.cancelled,
  expired: PAYMENT_MESSAGES.expired,
  timeout: PAYMENT_MESSAGES.pollingTimeout,
  not_found: PAYMENT_MESSAGES.paymentNotFound,
};

export function phaseOfStatus(status: PaymentStatus, isExpired: boolean): PixPhase {
  if (status === 'approved') return 'approved';
  if (status === 'rejected' || status === 'refunded') return 'rejected';
  if (status === 'cancelled') return 'cancelled';
  return isExpired ? 'expired' : 'polling';
}

const IDLE: PixPollingState = { phase: 'idle', attempts: 0, nextDelay: null };
const FIRST_WAIT: PixPollingState = { phase: 'polling', attempts: 0, nextDelay: PIX_POLLING.initialIntervalMs };

/**
 * `onFinal` hears the end of a payment: the polling's final answer, a `settle`, or a payment
 * handed in that had already ended. The screen reacts there (closes the PIX, refreshes the plan).
 */
export function usePixPolling(
  payment: ApiPixPayment | null,
  onFinal?: (phase: PixPhase, payment: ApiPixPayment) => void,
): PixPollingState & { restart(): void; settle(phase: PixPhase): void } {
  // The loop's state, kept with the payment it polls.
  const [polled, setPolled] = useState<{ payment: ApiPixPayment; state: PixPollingState } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const run = useRef(0);
  const final = useRef(onFinal);
  useEffect(() => {
    final.current = onFinal;
  });

  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    run.current++;
  };

  /** Polls `p` from its first wait (the state reads FIRST_WAIT until the first answer). */
  const begin = useCallback((p: ApiPixPayment) => {
    stop();
    const myRun = run.current;
    let attempt = 0;
    let current: number = PIX_POLLING.initialIntervalMs;
    const schedule = (delay: number) => {
      setPolled({ payment: p, state: { phase: 'polling', attempts: attempt, nextDelay: delay } });
      timer.current = setTimeout(poll, delay);
    };
    const finish = (phase: PixPhase) => {
      if (run.current !== myRun) return;
      timer.current = null;
      setPolled({ payment: p, state: { phase, attempts: attempt, nextDelay: null } });
      final.current?.(phase, p);
    };
    const poll = async () => {
      attempt++;
      let outcome: PollOutcome;
      try {
        const r = await plansApi.pollingStatus(p.id);
        if (run.current !== myRun) return;
        const phase = phaseOfStatus(r.status, r.isExpired);
        if (phase !== 'polling') return finish(phase);
        if (r.shouldContinuePolling === false) return finish('timeout');
        outcome = { kind: 'ok', recommendedInterval: r.recommendedInterval };
      } catch (e) {
        if (run.current !== myRun) return;
        outcome = { kind: 'error', status: isApiRequestError(e) ? e.status : undefined };
      }
      const d = nextPixPoll(attempt, current, outcome);
      if ('stop' in d) return finish(d.stop === 'not_found' ? 'not_found' : 'timeout');
      current = d.next;
      schedule(current);
    };
    timer.current = setTimeout(poll, current);
  }, []);

  useEffect(() => {
    if (payment && payment.status === 'pending') begin(payment);
    else if (payment) final.current?.(phaseOfStatus(payment.status, payment.isExpired), payment);
    return stop;
  }, [payment, begin]);

  let state: PixPollingState;
  if (!payment) state = IDLE;
  else if (payment.status !== 'pending') state = { phase: phaseOfStatus(payment.status, payment.isExpired), attempts: 0, nextDelay: null };
  else state = polled?.payment === payment ? polled.state : FIRST_WAIT;

  return {
    ...state,
    restart: () => {
      if (!payment) return;
      setPolled({ payment, state: FIRST_WAIT });
      begin(payment);
    },
    settle: (phase) => {
      stop();
      if (!payment) return;
      setPolled({ payment, state: { ...state, phase, nextDelay: null } });
      final.current?.(phase, payment);
    },
  };
}

/** 'Verificar pagamento': one status read now; a final answer ends the polling, a pending one restarts it. */
export function usePixCheck(payment: ApiPixPayment | null, polling: Pick<ReturnType<typeof usePixPolling>, 'restart' | 'settle'>): { checking: boolean; check(): Promise<void> } {
  const [checking, setChecking] = useState(false);
  const check = async () => {
    if (!payment) return;
    setChecking(true);
    try {
      const r = await plansApi.pixStatus(payment.id);
      const phase = phaseOfStatus(r.payment.status, r.payment.isExpired);
      if (phase === 'polling') {
        toast.info(PAYMENT_MESSAGES.pending);
        polling.restart();
      } else polling.settle(phase);
    } catch {
      toast.error(PAYMENT_MESSAGES.statusFailedShort);
    } finally {
      setChecking(false);
    }
  };
  return { checking, check };
}
