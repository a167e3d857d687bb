/**
 * Purchases and the sandbox approval (docs/payments.md): the buyer's own list and detail,
 * the payment config (whether the sandbox button is offered), and the admin calls of the
 * 'Compras' screen. Every call is quiet: the screens word their own errors.
 */
import type {
  ApiPixPayment,
  ApiPurchase,
  ApiRenewal,
  ApiSandboxCheckout,
  CheckoutResponse,
  Pagination,
  PaymentConfigResponse,
  PaymentMethod,
  PaymentsStatus,
  PurchaseStatus,
  SandboxCheckoutResult,
  SandboxPaymentOutcome,
} from '@aabify/shared';
import { api } from './client';

export interface PurchaseListResponse {
  success: true;
  purchases: ApiPurchase[];
  pagination: Pagination;
}

/** An admin list row: the purchase with its buyer (null when the account no longer exists). */
export interface AdminPurchase extends ApiPurchase {
  user: { id: string; email: string } | null;
}

export interface AdminPurchaseListResponse {
  success: true;
  purchases: AdminPurchase[];
  pagination: Pagination;
  /** Whether approved purchases get an NFS-e, and what the screen says about it. */
  nfse: { configured: boolean; message: string };
}

/** The answer of approve, simulate-approval and refund. */
export interface PurchaseActionResponse {
  success: true;
  message?: string;
  changed: boolean;
  payment: ApiPixPayment;
  purchase: ApiPurchase | null;
}

export interface SyncResponse {
  success: true;
  changed: boolean;
  payment: ApiPixPayment;
}

export interface AdminPurchaseQuery {
  page: number;
  limit: number;
  status?: PurchaseStatus | '';
  method?: PaymentMethod | '';
}

const id = (v: string) => encodeURIComponent(v);

export const paymentsApi = {
  config: () => api.get<PaymentConfigResponse>('/payments/config', { quiet: true }),
  /** Sandbox only: approves the buyer's own pending charge (payment or purchase id). */
  simulateApproval: (paymentId: string) => api.post<PurchaseActionResponse>(`/payments/simulate-approval/${id(paymentId)}`, undefined, { quiet: true }),
  purchases: (page: number, limit: number, signal?: AbortSignal) =>
    api.get<PurchaseListResponse>('/payments/purchases', { query: { page, limit }, quiet: true, signal }),
  purchase: (purchaseId: string) => api.get<{ success: true; purchase: ApiPurchase }>(`/payments/purchase/${id(purchaseId)}`, { quiet: true }),
  /** A hosted checkout (card, boleto) or, with renew, an automatic renewal to authorize at the provider. */
  checkout: (planId: string, renew: boolean) => api.post<CheckoutResponse>(`/payments/checkout/${id(planId)}`, { renew }, { quiet: true }),
  cancelRenewal: (renewalId: string) => api.post<{ success: true; message: string; renewal: ApiRenewal }>(`/payments/renewals/${id(renewalId)}/cancel`, {}, { quiet: true }),
  /** Sandbox only: the next period's charge of an active renewal, approved or refused. */
  simulateRenewalCharge: (renewalId: string, outcome: 'approved' | 'rejected') =>
    api.post<{ success: true; message: string }>(`/payments/renewals/${id(renewalId)}/simulate-charge`, { outcome }, { quiet: true }),
};

/** The sandbox's hosted checkout page (/sandbox/checkout/{id}): what a payer does on a provider's page. */
export const sandboxCheckoutApi = {
  get: (checkoutId: string) => api.get<{ success: true; checkout: ApiSandboxCheckout }>(`/payments/sandbox/checkouts/${id(checkoutId)}`, { quiet: true }),
  pay: (checkoutId: string, body: { method: 'card' | 'boleto'; outcome: SandboxPaymentOutcome; installments: number }) =>
    api.post<SandboxCheckoutResult>(`/payments/sandbox/checkouts/${id(checkoutId)}/pay`, body, { quiet: true }),
  authorize: (checkoutId: string, outcome: 'approved' | 'rejected') =>
    api.post<SandboxCheckoutResult>(`/payments/sandbox/checkouts/${id(checkoutId)}/authorize`, { outcome }, { quiet: true }),
};

export const adminPaymentsApi = {
  /** The active provider and, when payments are unavailable, why (never a secret). */
  status: () => api.get<PaymentsStatus>('/admin/payments/status', { quiet: true }),
  purchases: (q: AdminPurchaseQuery, signal?: AbortSignal) =>
    api.get<AdminPurchaseListResponse>('/admin/payments/purchases', { query: { ...q }, quiet: true, signal }),
  /** {purchaseId}: the server takes a purchase id as its latest payment. */
  approve: (purchaseId: string) => api.post<PurchaseActionResponse>(`/admin/payments/${id(purchaseId)}/approve`, {}, { quiet: true }),
  sync: (purchaseId: string) => api.post<SyncResponse>(`/admin/payments/${id(purchaseId)}/sync`, {}, { quiet: true }),
  refund: (purchaseId: string, reason?: string) =>
    api.post<PurchaseActionResponse>(`/admin/payments/${id(purchaseId)}/refund`, reason ? { reason } : {}, { quiet: true }),
};
