/** Sign-in, registration, first-run setup and the own password (docs/accounts.md). */
import type { ApiUser, AuthResponse, MessageResponse, RegisterResponse, SetupResponse, SetupStatusResponse, SignInResponse } from '@aabify/shared';
import { api } from './client';

export const authApi = {
  setupStatus: () => api.get<SetupStatusResponse>('/setup/status', { quiet: true }),
  initialize: (body: { email: string; password: string; name: string }) => api.post<SetupResponse>('/setup/initialize', body, { quiet: true }),
  /** Quiet: the forms show the refusal on the field it concerns (lib/formErrors.ts). */
  login: (body: { email: string; password: string }) => api.post<SignInResponse>('/auth/login', body, { quiet: true }),
  register: (body: { email: string; password: string; name?: string; acceptTerms: boolean }) => api.post<RegisterResponse>('/auth/register', body, { quiet: true }),
  me: () => api.get<ApiUser>('/auth/me', { quiet: true }),
  /** Ends this session on the server (its token stops working everywhere). Quiet: signing out never waits on it. */
  logout: () => api.post<MessageResponse>('/auth/logout', undefined, { quiet: true }),
  /** Ends every session of the account, this one too. */
  logoutAll: () => api.post<MessageResponse>('/auth/logout-all'),
  changePassword: (body: { currentPassword: string; newPassword: string }) =>
    api.patch<Partial<AuthResponse> & { message?: string }>('/auth/change-password', body, { quiet: true }),
};
