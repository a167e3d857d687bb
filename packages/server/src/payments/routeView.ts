import { CURRENCIES, type Currency, type CurrencyPaymentRoute } from '@aabify/shared';
import type { PaymentRoutes } from './providers/index.js';

/** Routes as buyers see them: which provider charges each currency and how (never whether it is broken: that is the 503). */
export function publicRoutes(routes: PaymentRoutes): Record<Currency, CurrencyPaymentRoute | null> {
  const out: Record<Currency, CurrencyPaymentRoute | null> = { BRL: null, USD: null, EUR: null };
  for (const currency of CURRENCIES) {
    const route = routes[currency];
    out[currency] = route ? { provider: route.provider, pix: route.pix, card: route.card, renewal: route.renewal, maxInstallments: route.maxInstallments } : null;
  }
  return out;
}

