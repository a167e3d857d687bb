/** The audit trail: Admin › Auditoria (list, detail, CSV) and the account's own security log. */
import { AUDIT_EXPORT_TRUNCATED_HEADER, type AccountActivityResponse, type AuditEventDetail, type AuditEventListResponse } from '@aabify/shared';
import { api } from './client';
import { downloadSignedIn } from './download';

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
  /** Saves the filtered set as the server writes it; `truncated` when older events were left out. */
  exportCsv: async (filter: AuditFilter): Promise<{ filename: string; truncated: boolean }> => {
    const saved = await downloadSignedIn('/admin/audit/export', { query: { ...filter }, fallbackName: `auditoria-${new Date().toISOString().slice(0, 10)}.csv` });
    return { filename: saved.name, truncated: saved.headers.get(AUDIT_EXPORT_TRUNCATED_HEADER) === 'true' };
  },
  accountActivity: (page: number) => api.get<AccountActivityResponse>('/account/activity', { query: { page }, quiet: true }),
};
