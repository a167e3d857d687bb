import { PAYMENT_MESSAGES as M, type PaymentsStatus } from '@aabify/shared';
import type { PaymentRoutes, PaymentsState } from './providers/index.js';
import { publicRoutes } from './routeView.js';

const LABELS = { sandbox: M.providerSandboxLabel, mercadopago: M.providerMercadoPagoLabel, stripe: M.providerStripeLabel } as const;

/** The provider state as the admin screens show it, with the currencies each provider charges. */
export function presentPaymentsState(state: PaymentsState, routes: PaymentRoutes): PaymentsStatus {
  return {
    provider: state.provider,
    label: LABELS[state.provider],
    sandbox: state.provider === 'sandbox',
    available: state.available,
    reason: state.available ? null : state.reason,
    message: state.available ? null : M.unavailableReasons[state.reason],
    routes: publicRoutes(routes),
  };
}
