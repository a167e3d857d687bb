/**
 * The conversion page's state: the conversion followed live, its upload phase, the live
 * channel's status, and the log cache in localStorage (conversion-logs-v1, only while signed
 * in, reset when the user changes).
 */
import { create } from 'zustand';
import type { ConversionUpdate } from '@aabify/shared';
import { applyUpdate, isLogLevel, type ConversionView, type LogEntry } from '../lib/conversion';
import { mergeLogsInOrder } from '../lib/logs';
import { CONVERSION_LOGS_KEY, LAST_USER_KEY, useSession } from './session';
import { readJson, write } from './storage';

export type LiveTransport = 'socket' | 'sse' | null;
export interface LiveStatus {
  connected: boolean;
  transport: LiveTransport;
  /** The channel dropped and is reconnecting: the page shows 'Conexão perdida…'. */
  lost: boolean;
}

export type ConversionPhase = 'idle' | 'uploading' | 'live';

interface LogsCache {
  v: 1;
  userId: string;
  conversions: Record<string, LogEntry[]>;
}
const MAX_CACHED_CONVERSIONS = 10;

function isLogsCache(v: unknown): v is LogsCache {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as LogsCache;
  return c.v === 1 && typeof c.userId === 'string' && typeof c.conversions === 'object' && c.conversions !== null;
}

function isLogEntry(v: unknown): v is LogEntry {
  return typeof v === 'object' && v !== null && typeof (v as LogEntry).message === 'string' && isLogLevel((v as LogEntry).level);
}

/** Cached logs of a conversion for this user (none for another user's cache). */
export function cachedLogs(userId: string, conversionId: string): LogEntry[] {
  const cache = readJson(CONVERSION_LOGS_KEY, isLogsCache);
  if (!cache || cache.userId !== userId) return [];
  const list = cache.conversions[conversionId];
  return Array.isArray(list) ? list.filter(isLogEntry) : [];
}

function saveLogs(userId: string, conversionId: string, logs: LogEntry[]): void {
  if (!useSession.getState().token) return;
  const cache = readJson(CONVERSION_LOGS_KEY, isLogsCache);
  const conversions = cache && cache.userId === userId ? { ...cache.conversions } : {};
  delete conversions[conversionId];
  conversions[conversionId] = logs;
  const ids = Object.keys(conversions);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_CACHED_CONVERSIONS))) delete conversions[id];
  write(CONVERSION_LOGS_KEY, { v: 1, userId, conversions } satisfies LogsCache);
}

interface ConversionsState {
  ownerId: string | null;
  current: ConversionView | null;
  phase: ConversionPhase;
  uploadFileName: string | null;
  uploadProgress: number;
  live: LiveStatus;
  /** Client time of the last update applied (drives the 2 s 'updated' flash). */
  lastUpdateAt: number | null;
  /**
   * Bumped by every clear: a stored-log read started before it (epoch given to addLogs)
   * must not bring the cleared entries back.
   */
  logsEpoch: number;
  /** Resets the page's state when the signed-in user is another one. */
  setOwner(userId: string | null): void;
  startUpload(fileName: string): void;
  setUploadProgress(percent: number): void;
  uploadFailed(): void;
  track(view: ConversionView): void;
  apply(update: ConversionUpdate): void;
  /**
   * Merges stored entries (GET /conversion/logs/:id) into the followed conversion's log, in
   * time order without duplicates; ignored for another conversion or after a clear since `epoch`.
   */
  addLogs(conversionId: string, entries: readonly LogEntry[], epoch?: number): void;
  /** Empties the console of the conversion (the current one when no id is given). */
  clearLogs(conversionId?: string): void;
  setLive(status: Partial<LiveStatus>): void;
  reset(): void;
}

const idle = { current: null, phase: 'idle' as const, uploadFileName: null, uploadProgress: 0, lastUpdateAt: null };

export const useConversions = create<ConversionsState>((set, get) => ({
  ownerId: null,
  logsEpoch: 0,
  ...idle,
  live: { connected: false, transport: null, lost: false },
  setOwner: (userId) => {
    if (get().ownerId === userId) return;
    const cache = readJson(CONVERSION_LOGS_KEY, isLogsCache);
    if (cache && cache.userId !== userId) write(CONVERSION_LOGS_KEY, null);
    if (userId && useSession.getState().token) write(LAST_USER_KEY, userId);
    set({ ownerId: userId, ...idle });
  },
  startUpload: (fileName) => set({ ...idle, phase: 'uploading', uploadFileName: fileName }),
  setUploadProgress: (percent) => set({ uploadProgress: percent }),
  uploadFailed: () => set({ phase: 'idle', uploadProgress: 0 }),
  track: (view) => {
    const owner = get().ownerId;
    const logs = owner ? mergeLogsInOrder(cachedLogs(owner, view.id), view.logs) : view.logs;
    set({ current: { ...view, logs }, phase: 'live', uploadProgress: 100 });
  },
  apply: (update) => {
    const { current, ownerId } = get();
    if (!current) return;
    const next = applyUpdate(current, update);
    if (next === current) return;
    set({ current: next, lastUpdateAt: Date.now() });
    if (ownerId && next.logs !== current.logs) saveLogs(ownerId, next.id, next.logs);
  },
  addLogs: (conversionId, entries, epoch) => {
    const { current, ownerId, logsEpoch } = get();
    if (!current || current.id !== conversionId || entries.length === 0) return;
    if (epoch !== undefined && epoch !== logsEpoch) return;
    const logs = mergeLogsInOrder(current.logs, entries);
    if (logs.length === current.logs.length && logs.every((l, i) => l === current.logs[i])) return;
    set({ current: { ...current, logs } });
    if (ownerId) saveLogs(ownerId, conversionId, logs);
  },
  clearLogs: (conversionId) => {
    const { current, ownerId, logsEpoch } = get();
    set({ logsEpoch: logsEpoch + 1 });
    if (!current || (conversionId !== undefined && current.id !== conversionId)) return;
    set({ current: { ...current, logs: [] } });
    if (ownerId) saveLogs(ownerId, current.id, []);
  },
  setLive: (status) => set((s) => ({ live: { ...s.live, ...status } })),
  reset: () => set({ ...idle }),
}));
