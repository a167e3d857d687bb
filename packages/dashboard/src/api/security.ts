/**
 * Account protection (docs/accounts.md, "Sessions", "Two-factor sign-in"): the sessions list,
 * two-factor enrolment and its recovery codes, and re-authentication before sensitive changes.
 */
import type {
  AuthResponse,
  MessageResponse,
  ReauthResponse,
  RecoveryCodesResponse,
  SessionListResponse,
  TwoFactorSetupResponse,
  TwoFactorStatus,
} from '@aabify/shared';
import { api } from './client';

export const securityApi = {
  sessions: async () => (await api.get<SessionListResponse>('/auth/sessions', { quiet: true })).sessions,
  endSession: (id: string) => api.delete<void>(`/auth/sessions/${encodeURIComponent(id)}`, { quiet: true }),
  twoFactor: () => api.get<TwoFactorStatus>('/auth/2fa', { quiet: true }),
  /** Quiet: the page shows the refusal. A stale session is asked for the password first (client.ts). */
  beginTwoFactor: () => api.post<TwoFactorSetupResponse>('/auth/2fa/setup', undefined, { quiet: true }),
  enableTwoFactor: (code: string) => api.post<RecoveryCodesResponse>('/auth/2fa/enable', { code }, { quiet: true }),
  disableTwoFactor: (body: { password: string; code: string }) => api.post<MessageResponse>('/auth/2fa/disable', body, { quiet: true }),
  regenerateRecoveryCodes: () => api.post<RecoveryCodesResponse>('/auth/2fa/recovery-codes', undefined, { quiet: true }),
  /** Never retried through the re-authentication prompt (it is the prompt's own call). */
  reauth: (body: { password?: string; code?: string }) => api.post<ReauthResponse>('/auth/reauth', body, { quiet: true, noReauth: true }),
  /** The second step of a sign-in: the challenge and a code of the app or a recovery code. */
  loginTwoFactor: (body: { challenge: string; code: string }) => api.post<AuthResponse>('/auth/login/2fa', body, { quiet: true }),
};
