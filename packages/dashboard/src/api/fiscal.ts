/**
 * Billing details (Conta › Dados de faturamento, asked before the first purchase) and a
 * purchase's PDF receipt (docs/payments.md). Quiet calls: the screens word their own errors.
 */
import type { BillingDetailsRequest, BillingDetailsResponse } from '@aabify/shared';
import { api } from './client';
import { downloadSignedIn } from './download';

const id = (v: string) => encodeURIComponent(v);

export const billingApi = {
  get: () => api.get<BillingDetailsResponse>('/account/billing', { quiet: true }),
  save: (details: BillingDetailsRequest) => api.put<BillingDetailsResponse>('/account/billing', details, { quiet: true }),
};

export const receiptApi = {
  /** Saves the purchase's PDF receipt (its owner's, or any for an admin). */
  download: async (purchaseId: string): Promise<string> =>
    (await downloadSignedIn(`/payments/purchase/${id(purchaseId)}/receipt`, { fallbackName: `recibo-aabify-${purchaseId.slice(0, 8)}.pdf` })).name,
};
