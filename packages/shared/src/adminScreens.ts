/** Small pure helpers of the admin screens: uptime text, windowed page buttons, settings drafts. */
import type { AdminConfigEntry } from './adminJson.js';
import { ADMIN_LIMITS } from './adminLimits.js';
import { ADMIN_MESSAGES } from './adminMessages.js';
import { CONVERSION_LIMITS } from './conversions.js';
import { countOf, formatNumber } from './numbers.js';

/** 93784 → '1d 2h 3m': days, hours and minutes. */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d}d ${h}h ${m}m`;
}

/**
 * The page buttons of a list: every page up to 7 pages; above that the first, the last and a
 * window around the current page, with 'ellipsis' for the gaps (always 7 slots).
 */
export function pageWindow(current: number, totalPages: number, max: number = ADMIN_LIMITS.windowedPagesAbove): Array<number | 'ellipsis'> {
  if (totalPages <= max) return Array.from({ length: Math.max(0, totalPages) }, (_, i) => i + 1);
  const cur = Math.min(Math.max(1, current), totalPages);
  const inner = max - 4; // slots between "1 …" and "… N"
  if (cur <= max - 3) return [...Array.from({ length: max - 2 }, (_, i) => i + 1), 'ellipsis', totalPages];
  if (cur >= totalPages - (max - 4)) return [1, 'ellipsis', ...Array.from({ length: max - 2 }, (_, i) => totalPages - (max - 3) + i)];
  const start = cur - Math.floor((inner - 1) / 2);
  return [1, 'ellipsis', ...Array.from({ length: inner }, (_, i) => start + i), 'ellipsis', totalPages];
}

/**
 * First check of a settings draft in the browser: not empty, a number where one is
 * expected, upload.maxFileSize within 1–500 MB or 0 (no limit), a known log level. The server checks again.
 */
export function validateSettingDraft(entry: { key: string; kind: AdminConfigEntry['kind']; options?: string[] }, draft: string): string | undefined {
  const text = draft.trim();
  if (text === '') return ADMIN_MESSAGES.settingEmpty;
  if (entry.kind === 'number') {
    // A decimal comma is how Brazilians write 2,5 (the ISS rate); integers are unaffected.
    const n = Number(text.replace(',', '.'));
    if (!Number.isFinite(n)) return ADMIN_MESSAGES.settingNotNumber;
    if (entry.key === 'upload.maxFileSize' && n !== CONVERSION_LIMITS.unlimitedMaxFileSize && (n < CONVERSION_LIMITS.minMaxFileSize || n > CONVERSION_LIMITS.maxMaxFileSize)) {
      return ADMIN_MESSAGES.settingFileSizeRange;
    }
  }
  if (entry.kind === 'enum' && entry.options && !entry.options.includes(text.toLowerCase())) return ADMIN_MESSAGES.settingLevel;
  return undefined;
}

/** A setting's value as the settings screen shows it (sizes in MB, intervals in seconds). */
export function formatSettingValue(key: string, value: number | string | boolean | null): string {
  if (value === null || value === undefined) return 'Não configurado';
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') {
    if (key === 'upload.maxFileSize') {
      if (value === CONVERSION_LIMITS.unlimitedMaxFileSize) return '0 (ilimitado)';
      return `${formatNumber(value / (1024 * 1024), { decimals: 2 })} MB (${formatNumber(value)} bytes)`;
    }
    if (key === 'upload.maxPendingBytes') {
      if (value === 0) return '0 (automático)';
      return `${formatNumber(value / (1024 * 1024), { decimals: 2 })} MB (${formatNumber(value)} bytes)`;
    }
    if (key === 'queue.broadcastInterval') return `${formatNumber(value / 1000, { decimals: 1 })} s (${formatNumber(value)} ms)`;
    if (key === 'conversions.concurrentPerUser' && value === 0) return '0 (ilimitado)';
    if (key === 'conversions.retentionDays') return countOf(value, 'dia', 'dias');
    if (key === 'conversions.maxDurationSeconds') return value % 60 === 0 ? `${countOf(value / 60, 'minuto', 'minutos')} (${formatNumber(value)} s)` : countOf(value, 'segundo', 'segundos');
    return formatNumber(value);
  }
  return value;
}
