/**
 * Money is kept in integer cents with its currency and shown in pt-BR format. Formatting is
 * written out by hand (not Intl) so server, dashboard and tests agree to the character:
 * Intl puts a no-break space after the symbol on some engines and not on others.
 */
export const CURRENCIES = ['BRL', 'USD', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'BRL';

const SYMBOLS: Record<Currency, string> = { BRL: 'R$', USD: 'US$', EUR: '€' };

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** 123456 → 'R$ 1.234,56'; -150 → '-R$ 1,50'. */
export function formatMoney(cents: number, currency: Currency = DEFAULT_CURRENCY): string {
  if (!Number.isFinite(cents)) throw new RangeError(`not a money amount: ${cents}`);
  const whole = Math.round(cents);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const units = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const fraction = (abs % 100).toString().padStart(2, '0');
  return `${sign}${SYMBOLS[currency]} ${units},${fraction}`;
}

/** Major units (as typed in a form, e.g. 19.9) → integer cents (1990). */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Integer cents → major units with two decimals (1990 → 19.9). */
export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

/** Whether a major-unit amount has at most two decimals (19.99 yes, 19.999 no). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6;
}
