/**
 * Which provider serves a payment. Mercado Pago (BRL: PIX, card, boleto, renewals) is the
 * provider as soon as anything configures it: PAYMENT_PROVIDER=mercadopago,
 * MERCADOPAGO_ACCESS_TOKEN or a stored access token. Stripe (USD and EUR by card, renewals) when
 * STRIPE_SECRET_KEY is set. Only when neither is configured is the sandbox active, for every
 * currency; a currency no configured provider charges cannot be bought (routes()). A configured Mercado Pago that cannot be used (a stored
 * secret that does not decrypt, no token, PAYMENT_PROVIDER=sandbox beside a key) is an error
 * state — purchases and webhooks refused, admins told — and never a switch to the sandbox,
 * whose approvals anyone could then use. A payment is always read back from the provider that
 * created it. Credentials are read per call, so an admin's change applies without a restart.
 */
import { CURRENCIES, type Currency, type CurrencyPaymentRoute, type PaymentProviderName, type PaymentsUnavailableReason } from '@aabify/shared';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { Models } from '../../models/index.js';
import type { SettingsService } from '../../settings/index.js';
import { createMercadoPagoProvider } from './mercadopago.js';
import { createSandboxProvider, type SandboxProvider } from './sandbox.js';
import { createStripeProvider } from './stripe.js';
import { PaymentProviderError, type PaymentProvider } from './provider.js';

export type PaymentsState =
  | { provider: PaymentProviderName; available: true }
  | { provider: 'mercadopago'; available: false; reason: PaymentsUnavailableReason };

/** How a currency is charged now; `available` is false while its configured provider is in its error state. */
export interface CurrencyRoute extends CurrencyPaymentRoute {
  available: boolean;
}
export type PaymentRoutes = Record<Currency, CurrencyRoute | null>;

export interface PaymentGateway {
  /**
   * The main provider and whether it can be used; a change is logged once. Mercado Pago when
   * configured (its error state included), else Stripe when configured, else the sandbox.
   */
  state(): Promise<PaymentsState>;
  /** The main provider (usable or not). The sandbox only when no real provider is configured. */
  mode(): Promise<PaymentProviderName>;
  /** The provider of new PIX charges; throws PaymentProviderError 'payments_unavailable' in the error state. */
  active(): Promise<PaymentProvider>;
  /** Per currency, which provider charges it and how (null: none can). */
  routes(): Promise<PaymentRoutes>;
  /** The provider that charges a currency; throws 'payments_unavailable' in its error state, 'not_configured' when none can. */
  forCurrency(currency: Currency): Promise<PaymentProvider>;
  /** Stripe's webhook signing secret (null without Stripe). */
  stripeWebhookSecret(): string | null;
  provider(name: PaymentProviderName): Promise<PaymentProvider>;
  readonly sandbox: SandboxProvider;
  publicKey(): Promise<string | null>;
  webhookSecret(): Promise<string | null>;
  /** Where Mercado Pago sends notifications (needs PUBLIC_URL). */
  notificationUrl(): string | undefined;
}

export function createPaymentGateway(opts: {
  config: Config;
  settings: SettingsService;
  models: Models;
  logger: Logger;
  /** Tests shorten Mercado Pago and Stripe timeouts and retries. */
  mercadoPago?: { timeoutMs?: number; retries?: number };
  stripe?: { timeoutMs?: number; retries?: number };
  /** Told when Mercado Pago refuses our credentials or stays unreachable (the admins' e-mail notice). */
  onProviderFailure?: (err: PaymentProviderError) => void;
  /** Told when a configured provider becomes unusable (the admins' e-mail notice); once per change of state. */
  onUnusable?: (state: PaymentsState & { available: false }) => void;
}): PaymentGateway {
  const { config, settings, models, logger } = opts;
  const sandbox = createSandboxProvider(models);
  let lastLogged: string | undefined;

  async function computeState(): Promise<PaymentsState> {
    const storedToken = await settings.stored('payments.mercadopago.accessToken');
    const configured = config.paymentProvider === 'mercadopago' || Boolean(config.mercadoPago.accessToken) || storedToken !== 'absent';
    if (!configured) return { provider: config.stripe ? 'stripe' : 'sandbox', available: true };
    const unavailable = (reason: PaymentsUnavailableReason): PaymentsState => ({ provider: 'mercadopago', available: false, reason });
    if (config.paymentProvider === 'sandbox') return unavailable('SANDBOX_CONFLICT');
    if (storedToken === 'undecryptable' || storedToken === 'invalid') return unavailable('ACCESS_TOKEN_UNREADABLE');
    if (!(await settings.get('payments.mercadopago.accessToken'))) return unavailable('ACCESS_TOKEN_MISSING');
    const storedSecret = await settings.stored('payments.mercadopago.webhookSecret');
    // Unreadable, the secret would read as absent and webhooks would go unchecked.
    if (storedSecret === 'undecryptable' || storedSecret === 'invalid') return unavailable('WEBHOOK_SECRET_UNREADABLE');
    return { provider: 'mercadopago', available: true };
  }

  async function state(): Promise<PaymentsState> {
    const current = await computeState();
    const key = current.available ? current.provider : `${current.provider}:${current.reason}`;
    if (key !== lastLogged) {
      lastLogged = key;
      if (current.available) logger.info({ provider: current.provider, stripe: Boolean(config.stripe) }, current.provider === 'sandbox' ? 'payments: sandbox provider (simulated payments, no real money)' : `payments: ${current.provider} provider`);
      else {
        logger.error({ provider: current.provider, reason: current.reason }, `payments unavailable: ${REASON_LOG[current.reason]}; purchases and webhooks are refused until an admin fixes it`);
        opts.onUnusable?.(current);
      }
    }
    return current;
  }

  async function provider(name: PaymentProviderName): Promise<PaymentProvider> {
    if (name === 'sandbox') return sandbox;
    if (name === 'stripe') {
      if (!config.stripe) throw new PaymentProviderError('not_configured', 'Stripe is not configured');
      return createStripeProvider({ secretKey: config.stripe.secretKey, apiUrl: config.stripe.apiUrl, logger, ...opts.stripe, onFailure: opts.onProviderFailure });
    }
    const current = await state();
    if (!current.available) throw new PaymentProviderError('payments_unavailable', `payments unavailable: ${current.reason}`);
    const accessToken = await settings.get('payments.mercadopago.accessToken');
    if (!accessToken) throw new PaymentProviderError('not_configured', 'Mercado Pago access token is not configured');
    return createMercadoPagoProvider({
      accessToken,
      apiBaseUrl: config.mercadoPago.apiBaseUrl,
      logger,
      timeoutMs: opts.mercadoPago?.timeoutMs,
      retries: opts.mercadoPago?.retries,
      onFailure: opts.onProviderFailure,
    });
  }

  async function routes(): Promise<PaymentRoutes> {
    const current = await state();
    const maxInstallments = (await settings.get('payments.maxInstallments')) ?? 1;
    const out: PaymentRoutes = { BRL: null, USD: null, EUR: null };
    if (current.provider === 'sandbox') {
      for (const currency of CURRENCIES) {
        const brl = currency === 'BRL';
        out[currency] = { provider: 'sandbox', pix: brl, card: true, renewal: true, maxInstallments: brl ? maxInstallments : 1, available: true };
      }
      return out;
    }
    if (current.provider === 'mercadopago') out.BRL = { provider: 'mercadopago', pix: true, card: true, renewal: true, maxInstallments, available: current.available };
    if (config.stripe) {
      for (const currency of ['USD', 'EUR'] as const) out[currency] = { provider: 'stripe', pix: false, card: true, renewal: true, maxInstallments: 1, available: true };
    }
    return out;
  }

  return {
    state,
    routes,
    async forCurrency(currency) {
      const route = (await routes())[currency];
      if (!route) throw new PaymentProviderError('not_configured', `no provider charges ${currency}`);
      if (!route.available) throw new PaymentProviderError('payments_unavailable', `payments unavailable for ${currency}`);
      return provider(route.provider);
    },
    stripeWebhookSecret: () => config.stripe?.webhookSecret ?? null,
    async mode() {
      return (await state()).provider;
    },
    sandbox,
    provider,
    async active() {
      const current = await state();
      if (!current.available) throw new PaymentProviderError('payments_unavailable', `payments unavailable: ${current.reason}`);
      return provider(current.provider);
    },
    publicKey: () => settings.get('payments.mercadopago.publicKey'),
    webhookSecret: () => settings.get('payments.mercadopago.webhookSecret'),
    notificationUrl() {
      if (!config.publicUrl) return undefined;
      return `${config.publicUrl.replace(/\/+$/, '')}/api/payments/webhook?source_news=webhooks`;
    },
  };
}

/** The reason in the server log (English, like every log line; never a secret). */
const REASON_LOG: Record<PaymentsUnavailableReason, string> = {
  ACCESS_TOKEN_UNREADABLE: 'the stored Mercado Pago access token cannot be decrypted (saved under another encryption key)',
  ACCESS_TOKEN_MISSING: 'PAYMENT_PROVIDER=mercadopago but no Mercado Pago access token is configured',
  WEBHOOK_SECRET_UNREADABLE: 'the stored Mercado Pago webhook secret cannot be decrypted (saved under another encryption key)',
  SANDBOX_CONFLICT: 'PAYMENT_PROVIDER=sandbox while a Mercado Pago access token is configured',
};

