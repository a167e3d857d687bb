/**
 * The PIX "copia e cola" payload (BR Code, EMV QRCPS-MPM): a flat TLV string, each field
 * ID (2 digits) + length (2 digits) + value, ending with the CRC field `63 04 XXXX` whose
 * value is CRC-16/CCITT-FALSE over everything before it including the literal `6304`.
 * Pure code (no Node APIs): the dashboard checks codes with the same functions.
 */

export interface TlvField {
  id: string;
  value: string;
}

const encoder = new TextEncoder();

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor; over UTF-8 bytes. */
export function crc16CcittFalse(text: string): number {
  let crc = 0xffff;
  for (const byte of encoder.encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The 4 uppercase hex digits of the CRC field for a payload that ends with `6304`. */
export function brCodeCrc(payloadUpToCrcTag: string): string {
  return crc16CcittFalse(payloadUpToCrcTag).toString(16).toUpperCase().padStart(4, '0');
}

/** Splits a TLV string into its fields; undefined when a length runs past the end. */
export function parseTlv(text: string): TlvField[] | undefined {
  const fields: TlvField[] = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(lengthText)) return undefined;
    const length = Number(lengthText);
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length !== length) return undefined;
    fields.push({ id, value });
    at += 4 + length;
  }
  return fields;
}

/** One TLV field, its length written in two digits. Throws for a value over 99 characters. */
export function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`bad EMV field id: ${id}`);
  if (value.length > 99) throw new RangeError(`EMV field ${id} longer than 99 characters`);
  return `${id}${value.length.toString().padStart(2, '0')}${value}`;
}

export type PixCodeProblem = 'too_short' | 'bad_prefix' | 'bad_crc';

export const PIX_CODE_MIN_LENGTH = 50;

/**
 * The client-side check of a copy-and-paste code (docs/decisions.md "PIX code check"): starts with
 * `000201`, at least 50 characters, and a correct CRC16 in the last field. Real Mercado Pago
 * codes hold lowercase letters and punctuation, so characters are not restricted.
 */
export function checkPixCode(code: string): { valid: true } | { valid: false; problem: PixCodeProblem } {
  if (code.length < PIX_CODE_MIN_LENGTH) return { valid: false, problem: 'too_short' };
  if (!code.startsWith('000201')) return { valid: false, problem: 'bad_prefix' };
  const crcField = code.slice(-8);
  if (!/^6304[0-9A-F]{4}$/.test(crcField)) return { valid: false, problem: 'bad_crc' };
  if (brCodeCrc(code.slice(0, -4)) !== crcField.slice(4)) return { valid: false, problem: 'bad_crc' };
  return { valid: true };
}

export function isValidPixCode(code: string): boolean {
  return checkPixCode(code).valid;
}
