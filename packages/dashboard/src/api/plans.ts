/** Plans and PIX payments of the plans page (docs/payments.md). */
import type { ApiPlan, CreatePixResponse, PixPollingStatusResponse, PixStatusResponse, PurchaseStatusResponse } from '@aabify/shared';
import { api, isApiRequestError } from './client';

function plansOf(body: unknown): ApiPlan[] {
  if (Array.isArray(body)) return body as ApiPlan[];
  if (typeof body === 'object' && body !== null && 'plans' in body && Array.isArray((body as { plans: unknown }).plans)) {
    return (body as { plans: ApiPlan[] }).plans;
  }
  return [];
}

export const plansApi = {
  publicPlans: async () => plansOf(await api.get<unknown>('/plans/public', { quiet: true })).filter((p) => p.isActive !== false),
  /** On 404, 405 or 500 the older path /create-pix/{planId} is tried. */
  createPix: async (planId: string): Promise<CreatePixResponse> => {
    const id = encodeURIComponent(planId);
    try {
      return await api.post<CreatePixResponse>(`/payments/create-pix/${id}`, undefined, { quiet: true });
    } catch (e) {
      // The fallback is for a server without the route; a plan that is not found stays an error.
      const routeMissing = isApiRequestError(e) && ((e.status === 404 && e.code === 'ROUTE_NOT_FOUND') || e.status === 405 || e.status === 500);
      if (routeMissing) {
        try {
          return await api.post<CreatePixResponse>(`/create-pix/${id}`, undefined, { quiet: true });
        } catch {
          throw e;
        }
      }
      throw e;
    }
  },
  pollingStatus: (paymentId: string) => api.get<PixPollingStatusResponse>(`/payments/pix-polling-status/${encodeURIComponent(paymentId)}`, { quiet: true }),
  pixStatus: (paymentId: string) => api.get<PixStatusResponse>(`/payments/pix-status/${encodeURIComponent(paymentId)}`, { quiet: true }),
  purchaseStatus: (purchaseId: string) => api.get<PurchaseStatusResponse>(`/payments/status/${encodeURIComponent(purchaseId)}`, { quiet: true }),
  cancel: (paymentId: string) => api.patch<unknown>(`/payments/cancel/${encodeURIComponent(paymentId)}`, undefined, { quiet: true }),
};
