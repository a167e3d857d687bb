/**
 * What the BRL field shows while a person types: thousands grouped as they go ('1234' →
 * '1.234'), a comma for the decimals ('19.9' typed → '19,9'), at most two decimals; cents
 * for the form. Pasted text goes through the shared parser (any of '19,90', '19.90',
 * 'R$ 1.234,56', '1,234.56').
 */
import { MONEY_INPUT_MESSAGES, formatMoney, parseMoneyInput } from '@aabify/shared';

export interface TypedMoney {
  /** The field's text (without 'R$', shown beside it). */
  text: string;
  /** Cents, or null while empty or invalid. */
  cents: number | null;
  error?: string;
}

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** The field's text for an amount: 199000 → '1.990,00'. */
export function moneyText(cents: number | null): string {
  return cents === null ? '' : formatMoney(cents).replace(/^R\$\s/, '');
}

/** The next text and amount after a keystroke. `previous` is the text shown before it: its dots are ours (thousands). */
export function typeMoney(previous: string, typed: string): TypedMoney {
  const t = typed.replace(/R\$|\s|\u00a0/g, '');
  if (t === '') return { text: '', cents: null };
  let whole: string;
  let fraction: string | null = null;
  const comma = t.lastIndexOf(',');
  const dot = t.lastIndexOf('.');
  if (comma >= 0) {
    whole = t.slice(0, comma);
    fraction = t.slice(comma + 1);
  } else if (!previous.includes('.') && dot >= 0 && t.indexOf('.') === dot && t.length - dot - 1 <= 2) {
    // A dot typed into a plain number ('19.' or '19.9'): the decimal separator.
    whole = t.slice(0, dot);
    fraction = t.slice(dot + 1);
  } else {
    whole = t;
  }
  const wholeDigits = whole.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  const fractionDigits = fraction === null ? null : fraction.replace(/\D/g, '');
  const text = `${group(wholeDigits || (fractionDigits !== null ? '0' : ''))}${fractionDigits !== null ? `,${fractionDigits}` : ''}`;
  if (fractionDigits !== null && fractionDigits.length > 2) return { text, cents: null, error: MONEY_INPUT_MESSAGES.tooManyDecimals };
  if (!wholeDigits && !fractionDigits) return { text, cents: null, error: MONEY_INPUT_MESSAGES.invalid };
  const cents = Number(wholeDigits || '0') * 100 + Number((fractionDigits ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return { text, cents: null, error: MONEY_INPUT_MESSAGES.invalid };
  return { text, cents };
}

/** Pasted text, whatever its style. */
export function pasteMoney(pasted: string): TypedMoney {
  const parsed = parseMoneyInput(pasted);
  if (!parsed.ok) return { text: pasted.trim(), cents: null, error: parsed.message };
  return { text: moneyText(parsed.cents), cents: parsed.cents };
}
