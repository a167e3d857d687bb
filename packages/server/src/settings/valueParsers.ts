/**
 * How an admin's input (a number or a text typed in the settings screen) becomes a setting's value:
 * each parser returns the value or throws SettingValueError with the pt-BR message shown beside the
 * field. The table of settings (definitions.ts) picks one per setting.
 */
import { compactTaxId, isValidCnpj } from '@aabify/shared';

export const SETTING_MESSAGES = {
  empty: 'Valor não pode ser vazio',
  notNumber: 'Valor deve ser um número válido',
  unknownKey: 'Configuração desconhecida',
  needsSmtp:
    'Só é possível exigir e-mail confirmado com o envio de e-mails configurado (SMTP_URL). Sem ele, nenhum cliente recebe o link e quem não confirmou ficaria sem comprar e converter.',
} as const;

export class SettingValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingValueError';
  }
}

export function text(input: unknown): string {
  if (input === undefined || input === null) throw new SettingValueError(SETTING_MESSAGES.empty);
  const value = String(input).trim();
  if (value === '') throw new SettingValueError(SETTING_MESSAGES.empty);
  return value;
}

export const PENDING_SIZE_RANGE = 'Valor deve estar entre 1 MB (1048576) e 10 GB (10737418240), ou 0 para automático';
export const SIZE_RANGE = 'Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite';

export function integer(min: number, max: number, rangeMessage: string) {
  return (input: unknown): number => {
    const raw = typeof input === 'number' ? input : Number(text(input));
    if (!Number.isFinite(raw) || !Number.isInteger(raw)) throw new SettingValueError(SETTING_MESSAGES.notNumber);
    if (raw < min || raw > max) throw new SettingValueError(rangeMessage);
    return raw;
  };
}

export function secretText(maxLength: number) {
  return (input: unknown): string => {
    const value = text(input);
    if (value.length > maxLength || /\s/.test(value)) throw new SettingValueError('Valor inválido para esta chave');
    return value;
  };
}

export const MB = 1024 * 1024;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailAddress(input: unknown): string {
  const value = text(input);
  if (value.length > 254 || !EMAIL_SHAPE.test(value)) throw new SettingValueError('Informe um e-mail válido, como suporte@empresa.com.br');
  return value.toLowerCase();
}

/** A wa.me link, or a phone number with country and area code turned into one. */
export function whatsappLink(input: unknown): string {
  const value = text(input);
  const digits = value.replace(/^https:\/\/wa\.me\//, '').replace(/[\s()+-]/g, '');
  if (!/^\d{10,15}$/.test(digits)) throw new SettingValueError('Informe o número com DDI e DDD (ex.: +55 11 91234-5678) ou um link https://wa.me/…');
  return `https://wa.me/${digits}`;
}

export function shortText(maxLength: number) {
  return (input: unknown): string => {
    const value = text(input);
    if (value.length > maxLength) throw new SettingValueError(`Use no máximo ${maxLength} caracteres`);
    return value;
  };
}

export function cnpj(input: unknown): string {
  const value = compactTaxId(text(input));
  if (!isValidCnpj(value)) throw new SettingValueError('CNPJ inválido: confira os dígitos');
  return value;
}

export function digits(length: number, message: string) {
  return (input: unknown): string => {
    const value = text(input).replace(/[\s./-]/g, '');
    if (!new RegExp(`^\\d{${length}}$`).test(value)) throw new SettingValueError(message);
    return value;
  };
}

/** A percentage such as 2, 2,5 or 5.00 (ISS is between 2 % and 5 %). */
export function issRate(input: unknown): number {
  const raw = typeof input === 'number' ? input : Number(text(input).replace('%', '').trim().replace(',', '.'));
  if (!Number.isFinite(raw) || raw < 0 || raw > 5 || Math.round(raw * 100) !== raw * 100) throw new SettingValueError('Use um percentual entre 0 e 5, com até duas casas (ex.: 2 ou 2,5)');
  return raw;
}

export function yesNo(input: unknown): boolean {
  if (input === true || input === false) return input;
  const value = text(input).toLowerCase();
  if (value === 'true' || value === 'sim' || value === '1') return true;
  if (value === 'false' || value === 'não' || value === 'nao' || value === '0') return false;
  throw new SettingValueError('Use sim ou não');
}
