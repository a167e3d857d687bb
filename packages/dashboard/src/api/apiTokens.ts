/** Personal API tokens (docs/accounts.md, "API tokens"): the secret comes in the creation answer only. */
import type { ApiTokenJson, ApiTokenScope, CreatedApiTokenResponse } from '@aabify/shared';
import { api } from './client';

export const apiTokensApi = {
  /** Newest first, without secrets. */
  list: async (): Promise<ApiTokenJson[]> => (await api.get<{ tokens: ApiTokenJson[] }>('/auth/tokens', { quiet: true })).tokens,
  /** Quiet: the page shows the refusal (field, limit, unconfirmed address) itself. */
  create: (name: string, scopes: readonly ApiTokenScope[]) => api.post<CreatedApiTokenResponse>('/auth/tokens', { name, scopes }, { quiet: true }),
  revoke: (id: string) => api.delete<void>(`/auth/tokens/${encodeURIComponent(id)}`, { quiet: true }),
};
