/**
 * Which provider serves a payment. `PAYMENT_PROVIDER` pins one; otherwise Mercado Pago when an
 * access token is configured (settings first, then MERCADOPAGO_ACCESS_TOKEN), else the
 * sandbox. A payment is always read back from the provider that created it, whatever is
 * active now. Credentials are read per call, so an admin's change applies without a restart.
 */
import type { PaymentProviderName } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import { createMercadoPagoProvider } from './mercadopago.js';
import { createSandboxProvider, type SandboxProvider } from './sandbox.js';
import { PaymentProviderError, type PaymentProvider } from './provider.js';

export interface PaymentGateway {
  /** The provider new charges go to. */
  mode(): Promise<PaymentProviderName>;
  active(): Promise<PaymentProvider>;
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
  /** Tests shorten Mercado Pago timeouts and retries. */
  mercadoPago?: { timeoutMs?: number; retries?: number };
  /** Told when Mercado Pago refuses our credentials or stays unreachable (the admins' e-mail notice). */
  onProviderFailure?: (err: PaymentProviderError) => void;
}): PaymentGateway {
  const { config, settings, models, logger } = opts;
  const sandbox = createSandboxProvider(models);

  async function mode(): Promise<PaymentProviderName> {
    if (config.paymentProvider) return config.paymentProvider;
    return (await settings.get('payments.mercadopago.accessToken')) ? 'mercadopago' : 'sandbox';
  }

  async function provider(name: PaymentProviderName): Promise<PaymentProvider> {
    if (name === 'sandbox') return sandbox;
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

  return {
    mode,
    sandbox,
    provider,
    async active() {
      return provider(await mode());
    },
    publicKey: () => settings.get('payments.mercadopago.publicKey'),
    webhookSecret: () => settings.get('payments.mercadopago.webhookSecret'),
    notificationUrl() {
      if (!config.publicUrl) return undefined;
      return `${config.publicUrl.replace(/\/+$/, '')}/api/payments/webhook?source_news=webhooks`;
    },
  };
}
