export { createPaymentGateway, type PaymentGateway, type PaymentsState } from './gateway.js';
export { PaymentProviderError, isPaymentProviderError, isRefusedChange, type PaymentProvider, type ProviderPayment, type ProviderStatus } from './provider.js';
export { providerErrorToApi } from './errors.js';
export { buildPixBrCode } from './brcode.js';
export { verifyMercadoPagoSignature, signManifest, signatureManifest } from './webhookSignature.js';
export { PIX_EXPIRATION_MINUTES } from '@aabify/shared';
