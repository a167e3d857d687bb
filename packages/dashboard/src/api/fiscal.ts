/**
 * Billing details (Conta › Dados de faturamento, asked before the first purchase) and a
 * purchase's PDF receipt (docs/payments.md). Quiet calls: the screens word their own errors.
 */
import type { BillingDetailsRequest, BillingDetailsResponse } from '@aabify/shared';
import { api, apiUrl, currentToken } from './client';
import { saveBlob } from './download';

const id = (v: string) => encodeURIComponent(v);

/** A file the API answers as an attachment, saved under the name it gives (filename*, else filename). */
export async function saveAttachment(path: string, fallbackName: string): Promise<string> {
  const token = currentToken();
  const res = await fetch(apiUrl(path), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const disposition = res.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : (/filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName);
  saveBlob(await res.blob(), name);
  return name;
}

export const billingApi = {
  get: () => api.get<BillingDetailsResponse>('/account/billing', { quiet: true }),
  save: (details: BillingDetailsRequest) => api.put<BillingDetailsResponse>('/account/billing', details, { quiet: true }),
};

export const receiptApi = {
  /** Saves the purchase's PDF receipt (its owner's, or any for an admin). */
  download: (purchaseId: string) => saveAttachment(`/payments/purchase/${id(purchaseId)}/receipt`, `recibo-aabify-${purchaseId.slice(0, 8)}.pdf`),
};
