/** The admin calls (docs/admin.md; dashboard, users, conversions, queue, system, config, plans). */
import type {
  AdminConfigResponse,
  AdminConfigUpdateResponse,
  AdminConversionListResponse,
  AdminDashboardStats,
  AdminQueueClearResponse,
  AdminQueueStats,
  AdminSystemStats,
  AdminUserDetail,
  AdminUserListResponse,
  AdminUserResponse,
  AnalyticsPeriod,
  MessageResponse,
  ApiPlan,
  BulkConversionResponse,
  PlanAnalytics,
  PlanListResponse,
  PlanPerformanceEntry,
  UserType,
} from '@aabify/shared';
import { api, apiRequest, apiUpload } from './client';
import { downloadSignedIn } from './download';

export interface UsersQuery {
  page: number;
  limit?: number;
  search?: string;
  role?: 'user' | 'admin' | '';
  userType?: UserType | 'none' | '';
}

export interface ConversionsQuery {
  page: number;
  limit: number;
  status?: string;
  search?: string;
  /** One customer's conversions (from Gerenciar Usuários). */
  userId?: string;
}

export interface PlanQuery {
  page: number;
  limit: number;
  search?: string;
  type?: string;
  status?: string;
  minPrice?: string;
  maxPrice?: string;
  sortBy?: string;
  sortOrder?: string;
}

export interface PlanBody {
  name: string;
  description: string;
  type: 'credit' | 'subscription';
  price: number;
  currency: string;
  credits?: number;
  subscriptionDetails?: { duration: number };
  features: string[];
  isPopular: boolean;
  /** Absent on a new plan: the server places it last. */
  displayOrder?: number;
  isActive: boolean;
}

type Message = { message: string };
const id = (v: string) => encodeURIComponent(v);

export const adminApi = {
  dashboard: () => api.get<AdminDashboardStats>('/admin/dashboard', { quiet: true }),
  users: (q: UsersQuery) => api.get<AdminUserListResponse>('/admin/users', { query: { ...q }, quiet: true }),
  /** One user with the billing details they saved. */
  user: (userId: string) => api.get<AdminUserDetail>(`/admin/users/${id(userId)}`, { quiet: true }),
  admins: () => api.get<AdminUserListResponse>('/admin/admins', { query: { limit: 100 }, quiet: true }),
  createUser: (body: { email: string; password: string; userType: UserType; credits?: number; planId?: string }) =>
    api.post<AdminUserResponse>('/admin/users/create-user', body, { quiet: true }),
  createAdmin: (body: { email: string; password: string }) => api.post<AdminUserResponse>('/admin/users/create-admin', body, { quiet: true }),
  updateUser: (userId: string, body: Record<string, unknown>) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/update`, body, { quiet: true }),
  setCredits: (userId: string, credits: number, operation: 'set' | 'add' | 'subtract' = 'set') =>
    api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/credits`, { credits, operation }, { quiet: true }),
  setSubscription: (userId: string, body: { planId?: string; expiresAt?: string; extendMonths?: number }) =>
    api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/subscription`, body, { quiet: true }),
  setType: (userId: string, userType: UserType) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/type`, { userType }, { quiet: true }),
  toggleStatus: (userId: string) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/toggle-status`, undefined, { quiet: true }),
  markEmailVerified: (userId: string) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/verify-email`, undefined, { quiet: true }),
  resendVerification: (userId: string) => api.post<MessageResponse>(`/admin/users/${id(userId)}/resend-verification`, undefined, { quiet: true }),
  promote: (userId: string) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/promote`, undefined, { quiet: true }),
  demote: (userId: string) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/demote`, undefined, { quiet: true }),
  changePassword: (userId: string, newPassword: string) => api.patch<AdminUserResponse>(`/admin/users/${id(userId)}/change-password`, { newPassword }, { quiet: true }),
  deleteUser: (userId: string) => api.delete<Message>(`/admin/users/${id(userId)}`, { quiet: true }),

  conversions: (q: ConversionsQuery, signal?: AbortSignal) => api.get<AdminConversionListResponse>('/admin/conversions', { query: { ...q }, signal, quiet: true }),
  deleteConversion: (conversionId: string) => api.delete<Message>(`/admin/conversions/${id(conversionId)}`, { quiet: true }),
  queue: () => api.get<AdminQueueStats>('/admin/queue', { quiet: true }),
  clearQueue: () => api.post<AdminQueueClearResponse>('/admin/queue/clear', undefined, { quiet: true }),
  system: () => api.get<AdminSystemStats>('/admin/system', { quiet: true }),
  config: () => api.get<AdminConfigResponse>('/admin/config', { quiet: true }),
  setConfig: (key: string, value: string | number | boolean) => api.put<AdminConfigUpdateResponse>(`/admin/config/${id(key)}`, { value }, { quiet: true }),

  bulkConvert: (files: File[], onProgress: (sent: number, total: number) => void) => {
    const form = new FormData();
    for (const f of files) form.append('apks', f, f.name);
    return apiUpload<BulkConversionResponse>('/conversion/convert/bulk', form, onProgress);
  },

  plans: (q: PlanQuery) => api.get<PlanListResponse>('/admin/plans', { query: { ...q }, quiet: true }),
  subscriptionPlans: () => api.get<PlanListResponse>('/admin/plans', { query: { limit: 100, type: 'subscription' }, quiet: true }),
  createPlan: (body: PlanBody) => api.post<{ message: string; plan: ApiPlan }>('/admin/plans', body, { quiet: true }),
  updatePlan: (planId: string, body: PlanBody) => api.put<{ message: string; plan: ApiPlan }>(`/admin/plans/${id(planId)}`, body, { quiet: true }),
  deletePlan: (planId: string) => api.delete<Message>(`/admin/plans/${id(planId)}`, { quiet: true }),
  togglePlan: (planId: string) => api.patch<{ message: string; plan: ApiPlan }>(`/admin/plans/${id(planId)}/toggle-status`, undefined, { quiet: true }),
  setPopular: (planId: string, popular: boolean) => api.patch<{ message: string; plan: ApiPlan }>(`/admin/plans/${id(planId)}/set-popular`, { popular }, { quiet: true }),
  duplicatePlan: (planId: string, newName: string) => api.post<{ message: string; plan: ApiPlan }>(`/admin/plans/${id(planId)}/duplicate`, { newName }, { quiet: true }),
  reorderPlans: (planOrders: Array<{ planId: string; displayOrder: number }>) =>
    api.patch<{ message: string; updatedCount: number }>('/admin/plans/reorder', { planOrders }, { quiet: true }),
  bulkUpdatePlans: (planIds: string[], updates: Record<string, unknown>) =>
    api.patch<{ message: string; updatedCount: number }>('/admin/plans/bulk-update', { planIds, updates }, { quiet: true }),
  bulkDeletePlans: (planIds: string[]) => apiRequest<{ message: string; deletedCount: number }>('DELETE', '/admin/plans/bulk-delete', { body: { planIds }, quiet: true }),
  planPerformance: (planIds: string[], period: AnalyticsPeriod) =>
    api.get<{ period: AnalyticsPeriod; performance: PlanPerformanceEntry[] }>('/admin/plans/performance', { query: { planIds: planIds.join(','), period }, quiet: true }),
  planAnalytics: (period: AnalyticsPeriod) => api.get<{ analytics: PlanAnalytics }>('/admin/plans/analytics', { query: { period }, quiet: true }),
  /** Saves the CSV as the server writes it, under the file name it gives (the date is in it). */
  exportPlans: async (q: Partial<PlanQuery>): Promise<string> =>
    (await downloadSignedIn('/admin/plans/export', { query: { ...q }, fallbackName: `planos-${new Date().toISOString().slice(0, 10)}.csv` })).name,
};
