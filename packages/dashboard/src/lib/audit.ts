/** Pure helpers of the audit screens: date filters, the before/after table, values as text. */

/**
 * The `from`/`to` filters of two date inputs (YYYY-MM-DD, the browser's day): from the start of
 * the first day to the end of the last, as ISO instants.
 */
export function auditDateRange(fromDay: string, toDay: string): { from?: string; to?: string } {
  const at = (day: string, time: string) => {
    const d = new Date(`${day}T${time}`);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  };
  return { from: fromDay ? at(fromDay, '00:00:00.000') : undefined, to: toDay ? at(toDay, '23:59:59.999') : undefined };
}

export interface AuditChangeRow {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** One row per field of either side, in the order they first appear. */
export function auditChangeRows(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChangeRow[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const b = before ? before[field] : undefined;
    const a = after ? after[field] : undefined;
    return { field, before: b, after: a, changed: JSON.stringify(b) !== JSON.stringify(a) };
  });
}

/** A recorded value as a person reads it: '—' for nothing, Sim/Não, lists and objects as JSON. */
export function auditValueText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (value === true) return 'Sim';
  if (value === false) return 'Não';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
