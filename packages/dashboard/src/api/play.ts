/** Google Play publishing (docs/play.md): the account's service-account key and publications. */
import type { ApiPublication, AdminPublication, PlayCredentialsMetadata, PlayReleaseRequest, PublicationLogEntry } from '@aabify/shared';
import { api } from './client';

export const playApi = {
  /** The stored key's e-mail and project; null when none is stored (an empty state, not an error). */
  credentials: async (): Promise<PlayCredentialsMetadata | null> =>
    (await api.get<{ credentials: PlayCredentialsMetadata | null }>('/account/play-credentials', { quiet: true })).credentials,
  saveCredentials: (key: string) => api.put<{ message: string; credentials: PlayCredentialsMetadata }>('/account/play-credentials', { key }, { quiet: true }),
  deleteCredentials: () => api.delete<void>('/account/play-credentials', { quiet: true }),
  test: (packageName: string) => api.post<{ message: string; credentials: PlayCredentialsMetadata }>('/account/play-credentials/test', { packageName }, { quiet: true }),
  publish: (conversionId: string, release: PlayReleaseRequest) => api.post<{ message: string; publication: ApiPublication }>('/publications', { conversionId, ...release }, { quiet: true }),
  publications: (conversionId: string) => api.get<{ publications: ApiPublication[] }>('/publications', { query: { conversionId }, quiet: true }),
  publication: (id: string) => api.get<{ publication: ApiPublication; logs: PublicationLogEntry[] }>(`/publications/${encodeURIComponent(id)}`, { quiet: true }),
  adminList: (query: { page: number; limit: number; status?: string; search?: string }) =>
    api.get<{ publications: AdminPublication[]; total: number; page: number; limit: number; totalPages: number }>('/admin/publications', { query: { ...query }, quiet: true }),
};
