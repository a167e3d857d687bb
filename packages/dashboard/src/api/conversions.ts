/** Conversion calls of the user page (docs/conversions.md "Calls"). */
import { api, apiUpload } from './client';
import type {
  ApiConversion,
  ConversionHistoryResponse,
  ConversionLimitsResponse,
  ConversionLogsResponse,
  ConversionStartResponse,
  ConversionStatus,
  DeviceProfilesResponse,
  HistorySortField,
  StreamTicketResponse,
  UsageInfo,
} from '@aabify/shared';

export type { ConversionHistoryResponse as HistoryResponse, UsageInfo } from '@aabify/shared';

export interface HistoryQuery {
  page: number;
  limit: number;
  search?: string;
  status?: ConversionStatus | '';
  sortBy?: HistorySortField;
  sortOrder?: 'asc' | 'desc';
}

export const conversionApi = {
  /** The files of one conversion (an APK, a split set, OBBs); `options` travels as the `options` field's JSON (e.g. `{ sign: true }`). */
  convert: (files: readonly File[], onProgress: (sent: number, total: number) => void, signal?: AbortSignal, options?: Record<string, unknown>) => {
    const form = new FormData();
    if (options && Object.keys(options).length > 0) form.append('options', JSON.stringify(options));
    for (const file of files) form.append('apk', file, file.name);
    return apiUpload<ConversionStartResponse>('/conversion/convert', form, onProgress, signal);
  },
  status: (id: string) => api.get<ApiConversion>(`/conversion/status/${encodeURIComponent(id)}`, { quiet: true }),
  history: (q: HistoryQuery, signal?: AbortSignal) => api.get<ConversionHistoryResponse>('/conversion/history', { query: { ...q }, signal }),
  usage: () => api.get<UsageInfo>('/conversion/usage', { quiet: true }),
  /** `quiet` for background reads (the conversion page's catch-up): no toast on failure. */
  logs: (id: string, opts: { quiet?: boolean; signal?: AbortSignal } = {}) => api.get<ConversionLogsResponse>(`/conversion/logs/${encodeURIComponent(id)}`, opts),
  /** The upload limits of the drop-zone (upload.maxFileSize, bytes). */
  limits: () => api.get<ConversionLimitsResponse>('/conversion/limits', { quiet: true }),
  /** The device profiles an `.aab` may ask a device set (`.apks`) for. */
  deviceProfiles: () => api.get<DeviceProfilesResponse>('/conversion/device-profiles', { quiet: true }),
  /** A single-use ticket for the conversion's event stream (the `?token=` of /conversion/updates/{id}). */
  streamTicket: (id: string) => api.post<StreamTicketResponse>(`/conversion/updates/${encodeURIComponent(id)}/ticket`, undefined, { quiet: true }),
  cancel: (id: string) => api.post<unknown>(`/conversion/cancel/${encodeURIComponent(id)}`),
  clearLogs: (id: string) => api.delete<unknown>(`/conversion/logs/${encodeURIComponent(id)}`, { quiet: true }),
};
