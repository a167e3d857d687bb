/** Sign-in, registration, first-run setup and the own password (spec users-and-conversion §7). */
import type { ApiUser, AuthResponse, RegisterResponse, SetupResponse, SetupStatusResponse } from '@aabify/shared';
import { api } from './client';

export const authApi = {
  setupStatus: () => api.get<SetupStatusResponse>('/setup/status', { quiet: true }),
  initialize: (body: { email: string; password: string; name: string }) => api.post<SetupResponse>('/setup/initialize', body, { quiet: true }),
  /** Quiet: the forms show the refusal on the field it concerns (lib/formErrors.ts). */
  login: (body: { email: string; password: string }) => api.post<AuthResponse>('/auth/login', body, { quiet: true }),
  register: (body: { email: string; password: string; name?: string }) => api.post<RegisterResponse>('/auth/register', body, { quiet: true }),
  me: () => api.get<ApiUser>('/auth/me', { quiet: true }),
  changePassword: (body: { currentPassword: string; newPassword: string }) =>
    api.patch<Partial<AuthResponse> & { message?: string }>('/auth/change-password', body, { quiet: true }),
};
