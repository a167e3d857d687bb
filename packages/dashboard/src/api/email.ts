/** E-mail: password recovery, address confirmation, notification preferences, and the admin outbox. */
import type {
  ForgotPasswordResponse,
  AdminEmailDetail,
  AdminEmailJson,
  AdminEmailListResponse,
  ApiUser,
  SignInResponse,
  EmailPreference,
  EmailStatus,
  EmailStatusResponse,
  MessageResponse,
  ResetLinkStatusResponse,
  VerifyEmailResponse,
} from '@aabify/shared';
import { api } from './client';

export interface EmailsQuery {
  page: number;
  status?: EmailStatus | '';
  search?: string;
}

export const emailApi = {
  /** Quiet: the forms show the refusal themselves. */
  forgotPassword: (email: string) => api.post<ForgotPasswordResponse>('/auth/forgot-password', { email }, { quiet: true }),
  /** Whether the reset link still works, asked when its page opens (the link stays unused). */
  resetLinkStatus: (token: string) => api.get<ResetLinkStatusResponse>(`/auth/reset-password/${encodeURIComponent(token)}/status`, { quiet: true }),
  resetPassword: (body: { token: string; password: string; confirmPassword: string }) =>
    api.post<SignInResponse & MessageResponse>('/auth/reset-password', body, { quiet: true }),
  /** The link's token; with the account's password or a new one when nobody is signed in to it. */
  verifyEmail: (body: { token: string; password?: string; newPassword?: string; confirmPassword?: string }) =>
    api.post<VerifyEmailResponse>('/auth/verify-email', body, { quiet: true }),
  resendVerification: () => api.post<MessageResponse>('/auth/resend-verification'),
  status: () => api.get<EmailStatusResponse>('/auth/email-status', { quiet: true }),
  /** One or more of the optional e-mails' switches (Conta › Perfil). */
  setPreferences: (body: Partial<Record<EmailPreference, boolean>>) => api.patch<MessageResponse & { user: ApiUser }>('/account/preferences', body),
  /** Quiet: the profile form shows the refusal beside its field. */
  saveProfile: (body: { name: string }) => api.patch<MessageResponse & { user: ApiUser }>('/account/profile', body, { quiet: true }),
  requestEmailChange: (newEmail: string) => api.post<MessageResponse>('/account/email-change', { newEmail }, { quiet: true }),
  confirmEmailChange: (token: string) => api.post<MessageResponse & { email: string }>('/account/email-change/confirm', { token }, { quiet: true }),
  adminList: (q: EmailsQuery) => api.get<AdminEmailListResponse>('/admin/emails', { query: { page: q.page, status: q.status, search: q.search } }),
  adminGet: (id: string) => api.get<AdminEmailDetail>(`/admin/emails/${encodeURIComponent(id)}`),
  /** A failed message back to the queue (recorded in the audit trail). */
  adminResend: (id: string) => api.post<MessageResponse & { email: AdminEmailJson }>(`/admin/emails/${encodeURIComponent(id)}/resend`, undefined, { quiet: true }),
};
