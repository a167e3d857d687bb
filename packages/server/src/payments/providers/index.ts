export { createPaymentGateway, type CurrencyRoute, type PaymentGateway, type PaymentRoutes, type PaymentsState } from './gateway.js';
export {
  PaymentProviderError,
  isPaymentProviderError,
  isRefusedChange,
  type CreateCheckoutInput,
  type CreateRenewalInput,
  type PaymentProvider,
  type ProviderCheckout,
  type ProviderPayment,
  type ProviderRenewal,
  type ProviderRenewalStatus,
  type ProviderStatus,
} from './provider.js';
export { providerErrorToApi } from './errors.js';
export { buildPixBrCode } from './brcode.js';
export { verifyMercadoPagoSignature, signManifest, signatureManifest } from './webhookSignature.js';
export { verifyStripeEvent } from './stripe.js';
export { checkoutPagePath, type SandboxOutcome, type SandboxProvider } from './sandbox.js';
export { PIX_EXPIRATION_MINUTES } from '@aabify/shared';
