/**
 * pt-BR formatting of what the screens show (sizes: formatBytes of @aabify/shared): durations, wait estimates, dates, ids.
 * Pure functions, so the texts are tested without a browser.
 */

/** 3723000 → '1h 2m 3s'; 125000 → '2m 5s'; 4000 → '4s'; under a second → 'menos de 1s' (never '0s'); unknown → '—'. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return 'menos de 1s';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (s || parts.length === 0) parts.push(`${s}s`);
  return parts.join(' ');
}

export const ESTIMATE_TEXTS = {
  due: 'A qualquer momento',
  underOneMinute: 'Menos de 1 minuto',
  oneMinute: '1 minuto',
  /** When the queue gave no estimate. */
  queueFallback: '2-5 min',
  /** When a running conversion gave no estimate. */
  processingFallback: '~2-3 min',
} as const;

/** A wait in ms as the queue card says it. */
export function formatEstimate(ms: number | null | undefined, fallback: string = ESTIMATE_TEXTS.queueFallback): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return fallback;
  if (ms <= 0) return ESTIMATE_TEXTS.due;
  if (ms < 60000) return ESTIMATE_TEXTS.underOneMinute;
  const minutes = Math.round(ms / 60000);
  return minutes <= 1 ? ESTIMATE_TEXTS.oneMinute : `${minutes} minutos`;
}

/** Seconds until a retry, in words: 30 → '30 segundos'; 60 → '1 minuto'; 150 → '3 minutos'. */
export function formatRetryAfter(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s === 1 ? '1 segundo' : `${s} segundos`;
  const m = Math.ceil(s / 60);
  return m === 1 ? '1 minuto' : `${m} minutos`;
}

/** A date as the answers carry it (ISO text), epoch ms or a Date. */
export type DateLike = string | number | Date | null | undefined;

export function toDate(value: DateLike): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** '31/12/2025' (the browser's time zone). */
export function formatDate(value: DateLike): string {
  const d = toDate(value);
  return d ? d.toLocaleDateString('pt-BR') : '—';
}

/** '31/12/2025, 14:05:09' */
export function formatDateTime(value: DateLike): string {
  const d = toDate(value);
  return d ? d.toLocaleString('pt-BR') : '—';
}

/** '14:05:09' */
export function formatTime(value: DateLike): string {
  const d = toDate(value);
  return d ? d.toLocaleTimeString('pt-BR') : '—';
}

/** The last 8 characters of an id, as the conversion cards show it. */
export function shortId(id: string | null | undefined): string {
  return id ? id.slice(-8) : '—';
}

/** 'app.apk' → 'app.aab'; no name → 'converted.aab' (the shared rule). */
export { aabFileName } from '@aabify/shared';

/** 'mm:ss' of a countdown; negative counts as 0. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Savings of the converted file against the original, when it is smaller. */
export function savings(originalSize: number | undefined, finalSize: number | undefined): { bytes: number; percent: number } | undefined {
  if (!originalSize || !finalSize || finalSize >= originalSize) return undefined;
  const bytes = originalSize - finalSize;
  return { bytes, percent: Math.round((bytes / originalSize) * 1000) / 10 };
}
