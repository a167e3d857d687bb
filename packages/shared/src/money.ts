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

export const MONEY_INPUT_MESSAGES = {
  invalid: 'Valor inválido: use o formato 19,90',
  tooManyDecimals: 'Use no máximo 2 casas decimais',
  negative: 'O valor não pode ser negativo',
} as const;

export type MoneyParse = { ok: true; cents: number } | { ok: false; message: string };

/**
 * An amount as a person types or pastes it, to integer cents: '19,90', '19.90', '19,9',
 * 'R$ 1.234,56', '1234.56', '1.234' (thousands) and '1,234.56' are all understood. A comma,
 * when present, is the decimal separator unless it is followed by exactly 3 digits and a dot
 * comes later (US style); a lone dot followed by one or two digits is decimal; other dots
 * group thousands. Empty text is not an amount (callers decide whether it is required).
 */
export function parseMoneyInput(text: string): MoneyParse {
  const compact = text.replace(/R\$|\s|\u00a0/g, '');
  if (compact === '') return { ok: false, message: MONEY_INPUT_MESSAGES.invalid };
  if (compact.startsWith('-')) return { ok: false, message: MONEY_INPUT_MESSAGES.negative };
  if (!/^[\d.,]+$/.test(compact) || !/\d/.test(compact)) return { ok: false, message: MONEY_INPUT_MESSAGES.invalid };
  let whole: string;
  let fraction = '';
  const lastComma = compact.lastIndexOf(',');
  const lastDot = compact.lastIndexOf('.');
  if (lastComma >= 0 && lastDot > lastComma) {
    // '1,234.56': commas group, the dot is decimal.
    whole = compact.slice(0, lastDot).replace(/,/g, '');
    fraction = compact.slice(lastDot + 1);
  } else if (lastComma >= 0) {
    whole = compact.slice(0, lastComma).replace(/\./g, '');
    fraction = compact.slice(lastComma + 1);
  } else if (lastDot >= 0 && compact.indexOf('.') === lastDot && compact.length - lastDot - 1 <= 2) {
    whole = compact.slice(0, lastDot);
    fraction = compact.slice(lastDot + 1);
  } else {
    whole = compact.replace(/\./g, '');
  }
  if (/[.,]/.test(fraction) || /[.,]/.test(whole)) return { ok: false, message: MONEY_INPUT_MESSAGES.invalid };
  if (fraction.length > 2) return { ok: false, message: MONEY_INPUT_MESSAGES.tooManyDecimals };
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0') || '0');
  if (!Number.isSafeInteger(cents)) return { ok: false, message: MONEY_INPUT_MESSAGES.invalid };
  return { ok: true, cents };
}

/** Whether a new amount differs from the old one by more than `factor` times either way (a typo guard). */
export function isDrasticChange(oldCents: number, newCents: number, factor = 10): boolean {
  if (oldCents <= 0 || newCents <= 0) return false;
  return newCents > oldCents * factor || oldCents > newCents * factor;
}
