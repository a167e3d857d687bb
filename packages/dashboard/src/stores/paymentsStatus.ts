/**
 * The payment provider as the admin screens show it (GET /admin/payments/status): the banner
 * of every admin screen when payments are unavailable, and the active provider on Compras and
 * Configurações. Read again when the admin moves between screens and after a payment key is saved.
 */
import { create } from 'zustand';
import type { PaymentsStatus } from '@aabify/shared';
import { adminPaymentsApi } from '../api/payments';

interface PaymentsStatusState {
  status: PaymentsStatus | null;
  /** A failed read keeps what was known: the banner must not flicker away on a network hiccup. */
  refresh(): Promise<void>;
  set(status: PaymentsStatus): void;
}

let generation = 0;

export const usePaymentsStatus = create<PaymentsStatusState>((set) => ({
  status: null,
  refresh: async () => {
    const mine = ++generation;
    try {
      const status = await adminPaymentsApi.status();
      if (mine === generation) set({ status });
    } catch {
      // Left as it was.
    }
  },
  set: (status) => {
    generation++;
    set({ status });
  },
}));
