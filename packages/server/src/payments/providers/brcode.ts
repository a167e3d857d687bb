/**
 * BR Code payloads for the sandbox provider, shaped like Mercado Pago's: no field 01 (so the
 * code starts with 00020126), a PIX key in 26/01, amount, merchant name and city, the txid in
 * 62/05 and the CRC16 in 63.
 */
import { brCodeCrc, tlv } from '@aabify/shared';

export interface BrCodeInput {
  /** PIX key (EVP UUID, e-mail, CPF/CNPJ or +55 phone). */
  pixKey: string;
  amountCents: number;
  merchantName: string;
  merchantCity: string;
  /** Reference label, up to 25 letters and digits. */
  txid: string;
}

/** Plain ASCII letters, digits and spaces, upper-cased: what every bank app renders alike. */
export function emvText(value: string, max: number): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase()
    .slice(0, max)
    .trim();
}

export function buildPixBrCode(input: BrCodeInput): string {
  if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('PIX amount must be positive cents');
  const txid = input.txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***';
  const amount = (input.amountCents / 100).toFixed(2);
  const body =
    tlv('00', '01') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', input.pixKey)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', amount) +
    tlv('58', 'BR') +
    tlv('59', emvText(input.merchantName, 25) || 'AABIFY') +
    tlv('60', emvText(input.merchantCity, 15) || 'SAO PAULO') +
    tlv('62', tlv('05', txid)) +
    '6304';
  return body + brCodeCrc(body);
}
