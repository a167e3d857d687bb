/** The audit trail: Admin › Auditoria (list, detail, CSV) and the account's own security log. */
import { AUDIT_EXPORT_TRUNCATED_HEADER, type AccountActivityResponse, type AuditEventDetail, type AuditEventListResponse } from '@aabify/shared';
import { api, apiUrl, currentToken } from './client';

/** Admin › Auditoria's filters; dates as ISO instants (lib/audit.ts: auditDateRange). */
export interface AuditFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  target?: string;
  address?: string;
  from?: string;
  to?: string;
}

export const auditApi = {
  list: (page: number, filter: AuditFilter, signal?: AbortSignal) => api.get<AuditEventListResponse>('/admin/audit', { query: { page, ...filter }, signal, quiet: true }),
  get: (id: string) => api.get<AuditEventDetail>(`/admin/audit/${encodeURIComponent(id)}`, { quiet: true }),
  /** The filtered set as the server writes it; `truncated` when older events were left out. */
  exportCsv: async (filter: AuditFilter): Promise<{ blob: Blob; filename: string; truncated: boolean }> => {
    const token = currentToken();
    const res = await fetch(apiUrl('/admin/audit/export', { ...filter }), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const disposition = res.headers.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `auditoria-${new Date().toISOString().slice(0, 10)}.csv`;
    return { blob: await res.blob(), filename, truncated: res.headers.get(AUDIT_EXPORT_TRUNCATED_HEADER) === 'true' };
  },
  accountActivity: (page: number) => api.get<AccountActivityResponse>('/account/activity', { query: { page }, quiet: true }),
};
