/**
 * Provider failures as API answers, with their pt-BR texts. A provider's 401 is never
 * passed on as 401: the dashboard reads 401 as "your session expired" and signs the user out.
 */
import { PAYMENT_MESSAGES as M } from '@aabify/shared';
import { ApiError } from '../../http/errors.js';
import type { PaymentProviderError } from './provider.js';

export function providerErrorToApi(err: PaymentProviderError): ApiError {
  switch (err.kind) {
    case 'validation':
      return new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}${err.detail.providerMessage ?? err.message}`);
    case 'not_found':
      return new ApiError(404, 'PAYMENT_NOT_FOUND', M.paymentNotFound);
    case 'pix_key_missing':
      return new ApiError(503, 'PIX_KEY_MISSING', M.pixKeyMissing);
    case 'payments_unavailable':
      return new ApiError(503, 'PAYMENTS_UNAVAILABLE', M.paymentsUnavailable);
    case 'not_configured':
      return new ApiError(503, 'PAYMENT_PROVIDER_NOT_CONFIGURED', M.providerNotConfigured);
    case 'auth':
      return new ApiError(500, 'PAYMENT_PROVIDER_AUTH', M.internal);
    case 'conflict':
      return new ApiError(409, 'PAYMENT_CONFLICT', M.notPending);
    case 'unavailable':
    default:
      return new ApiError(500, 'PAYMENT_PROVIDER_UNAVAILABLE', M.internal);
  }
}
