/**
 * The one pt-BR number formatter: every count, percentage, load figure and plural the
 * screens, the API's messages and the CLI show goes through here, so "43,5%" never sits
 * next to "0.87". Written by hand (not Intl) like money.ts, so server, browser and tests
 * agree to the character.
 */

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * 1234.5 → '1.234,5'; 0.866 with 2 decimals → '0,87'; 3 → '3'. `decimals` is the most
 * shown (trailing zeros dropped) unless `fixed` keeps them ('0,80').
 */
export function formatNumber(value: number, opts: { decimals?: number; fixed?: boolean } = {}): string {
  if (!Number.isFinite(value)) return '—';
  const decimals = opts.decimals ?? 0;
  const factor = 10 ** decimals;
  const rounded = Math.round(Math.abs(value) * factor) / factor;
  const sign = value < 0 && rounded !== 0 ? '-' : '';
  const [whole = '0', fraction = ''] = rounded.toFixed(decimals).split('.');
  const shownFraction = opts.fixed ? fraction : fraction.replace(/0+$/, '');
  return `${sign}${groupThousands(whole)}${shownFraction ? `,${shownFraction}` : ''}`;
}

/** 43.46 → '43,5%' (one decimal by default). */
export function formatPercent(value: number, decimals = 1): string {
  return `${formatNumber(value, { decimals })}%`;
}

/** The word for a count: plural(1, 'aprovada', 'aprovadas') → 'aprovada'; 0 and 2+ take the plural. */
export function plural(count: number, one: string, many: string): string {
  return Math.abs(count) === 1 ? one : many;
}

/** '1 aprovada', '2 pendentes', '1.234 conversões'. */
export function countOf(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${plural(count, one, many)}`;
}

const SIZE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * A size as a Brazilian reader writes it: 44 → '44 bytes', 1536 → '1,5 KB', 1278851 → '1,22 MB'
 * (base 1024, at most 2 decimals). The one size formatter of the screens and the conversion log.
 */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) return '0 bytes';
  if (bytes < 1024) return `${formatNumber(bytes)} ${plural(bytes, 'byte', 'bytes')}`;
  let unit = Math.min(SIZE_UNITS.length, Math.floor(Math.log(bytes) / Math.log(1024)));
  // 1023,999 KB rounds to 1.024 KB: say 1 MB instead.
  if (Math.round((bytes / 1024 ** unit) * 100) / 100 >= 1024 && unit < SIZE_UNITS.length) unit++;
  return `${formatNumber(bytes / 1024 ** unit, { decimals: 2 })} ${SIZE_UNITS[unit - 1]}`;
}
