/**
 * Mercado Pago's webhook signature (docs/payments-pix.md "Webhooks"): `x-signature: ts=<seconds>,v1=<hex>` is
 * HMAC-SHA256(secret, "id:<data.id from the query>;request-id:<x-request-id>;ts:<ts>;"), with
 * a missing id or request-id left out of the manifest. Compared in constant time; a ts too far
 * from now is refused so a captured notification cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureFailure =
  | 'missing_signature'
  | 'malformed_signature'
  | 'missing_timestamp'
  | 'missing_hash'
  | 'stale_timestamp'
  | 'signature_mismatch';

export interface SignatureInput {
  xSignature: string | string[] | undefined;
  xRequestId: string | string[] | undefined;
  /** data.id from the query string. */
  dataId: string | undefined;
  secret: string;
  nowMs?: number;
  toleranceSeconds?: number;
}

export const SIGNATURE_TOLERANCE_SECONDS = 300;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function signatureManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  let manifest = '';
  if (dataId) manifest += `id:${dataId};`;
  if (requestId) manifest += `request-id:${requestId};`;
  return `${manifest}ts:${ts};`;
}

export function signManifest(manifest: string, secret: string): string {
  return createHmac('sha256', secret).update(manifest).digest('hex');
}

function parseHeader(header: string): Map<string, string> | undefined {
  const parts = new Map<string, string>();
  for (const piece of header.split(',')) {
    const at = piece.indexOf('=');
    if (at <= 0) return undefined;
    parts.set(piece.slice(0, at).trim(), piece.slice(at + 1).trim());
  }
  return parts;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function verifyMercadoPagoSignature(input: SignatureInput): { ok: true } | { ok: false; reason: SignatureFailure } {
  const header = first(input.xSignature);
  if (!header) return { ok: false, reason: 'missing_signature' };
  const parts = parseHeader(header);
  if (!parts) return { ok: false, reason: 'malformed_signature' };
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts) return { ok: false, reason: 'missing_timestamp' };
  if (!v1) return { ok: false, reason: 'missing_hash' };
  if (!/^\d{1,13}$/.test(ts)) return { ok: false, reason: 'malformed_signature' };
  const now = input.nowMs ?? Date.now();
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(now / 1000 - Number(ts)) > tolerance) return { ok: false, reason: 'stale_timestamp' };
  const requestId = first(input.xRequestId);
  const expected = signManifest(signatureManifest(input.dataId, requestId, ts), input.secret);
  if (sameHex(expected, v1.toLowerCase())) return { ok: true };
  // Alphanumeric ids (Orders API) are signed lowercased by some MP versions; payment ids are digits.
  if (input.dataId && input.dataId !== input.dataId.toLowerCase()) {
    const lower = signManifest(signatureManifest(input.dataId.toLowerCase(), requestId, ts), input.secret);
    if (sameHex(lower, v1.toLowerCase())) return { ok: true };
  }
  return { ok: false, reason: 'signature_mismatch' };
}
