import { PAYMENT_MESSAGES as M, type PaymentsStatus } from '@aabify/shared';
import type { PaymentsState } from './providers/index.js';

/** The provider state as the admin screens show it. */
export function presentPaymentsState(state: PaymentsState): PaymentsStatus {
  return {
    provider: state.provider,
    label: state.provider === 'sandbox' ? M.providerSandboxLabel : M.providerMercadoPagoLabel,
    sandbox: state.provider === 'sandbox',
    available: state.available,
    reason: state.available ? null : state.reason,
    message: state.available ? null : M.unavailableReasons[state.reason],
  };
}
