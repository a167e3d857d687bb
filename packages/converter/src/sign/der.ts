/**
 * A small DER reader and writer: just what keystores, X.509 certificates and PKCS#7 need.
 * The reader is bounded (every length is checked against its parent, nesting is capped), so a
 * hostile keystore fails with BAD_KEYSTORE instead of reading out of range.
 */
import { ConverterError } from '../errors.js';

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  IA5_STRING: 0x16,
  BMP_STRING: 0x1e,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

const MAX_DEPTH = 32;

/** One TLV: `bytes` is the whole encoding (header + content), `content` the value. */
export interface Der {
  tag: number;
  content: Buffer;
  bytes: Buffer;
}

function bad(what: string): never {
  throw new ConverterError('BAD_KEYSTORE', `DER: ${what}`);
}

/** Reads the TLV at `pos` of `buf` (within `end`). */
export function readTlv(buf: Buffer, pos = 0, end = buf.length): Der {
  if (pos + 2 > end) bad(`cabeçalho truncado em ${pos}`);
  const tag = buf[pos];
  if ((tag & 0x1f) === 0x1f) bad(`tag de vários bytes em ${pos}`);
  let len = buf[pos + 1];
  let p = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) bad(`comprimento indefinido ou grande demais em ${pos}`);
    if (p + n > end) bad(`comprimento truncado em ${pos}`);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p + i];
    p += n;
  }
  if (p + len > end) bad(`valor de ${len} bytes ultrapassa o limite em ${pos}`);
  return { tag, content: buf.subarray(p, p + len), bytes: buf.subarray(pos, p + len) };
}

/** Parses exactly one TLV filling `buf`. */
export function parseDer(buf: Uint8Array): Der {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const d = readTlv(b);
  if (d.bytes.length !== b.length) bad(`${b.length - d.bytes.length} bytes sobrando`);
  return d;
}

/** The TLVs inside a constructed value. */
export function children(d: Der, depth = 0): Der[] {
  if (depth > MAX_DEPTH) bad('aninhamento profundo demais');
  if (!(d.tag & 0x20)) bad(`tag 0x${d.tag.toString(16)} não é construída`);
  const out: Der[] = [];
  let p = 0;
  while (p < d.content.length) {
    const c = readTlv(d.content, p);
    out.push(c);
    p += c.bytes.length;
  }
  return out;
}

export function expectTag(d: Der | undefined, tag: number, what: string): Der {
  if (!d || d.tag !== tag) bad(`${what}: esperada tag 0x${tag.toString(16)}, encontrada ${d ? `0x${d.tag.toString(16)}` : 'nada'}`);
  return d;
}

/** A SEQUENCE's children, with at least `min` of them. */
export function seq(d: Der | undefined, what: string, min = 0): Der[] {
  const items = children(expectTag(d, TAG.SEQUENCE, what));
  if (items.length < min) bad(`${what}: ${items.length} itens, esperados ao menos ${min}`);
  return items;
}

export function readOid(d: Der | undefined, what = 'OID'): string {
  const c = expectTag(d, TAG.OID, what).content;
  if (c.length === 0) bad(`${what}: vazio`);
  const parts: number[] = [];
  let v = 0;
  for (let i = 0; i < c.length; i++) {
    v = v * 128 + (c[i] & 0x7f);
    if (v > Number.MAX_SAFE_INTEGER / 128) bad(`${what}: componente grande demais`);
    if (!(c[i] & 0x80)) {
      if (parts.length === 0) {
        const first = v < 80 ? Math.floor(v / 40) : 2;
        parts.push(first, v - first * 40);
      } else parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** A non-negative INTEGER that fits a JS number (iteration counts, versions). */
export function readSmallInt(d: Der | undefined, what = 'INTEGER'): number {
  const c = expectTag(d, TAG.INTEGER, what).content;
  if (c.length === 0 || c.length > 6 || c[0] & 0x80) bad(`${what}: fora do intervalo`);
  let v = 0;
  for (const b of c) v = v * 256 + b;
  return v;
}

export function readOctets(d: Der | undefined, what = 'OCTET STRING'): Buffer {
  if (d && d.tag === (TAG.OCTET_STRING | 0x20)) {
    // Constructed (BER) octet strings: some PKCS#12 writers chunk the content.
    return Buffer.concat(children(d).map((c) => readOctets(c, what)));
  }
  return expectTag(d, TAG.OCTET_STRING, what).content;
}

/** Text of a string-typed value (UTF8, Printable, IA5, BMP). */
export function readString(d: Der): string {
  if (d.tag === TAG.BMP_STRING) {
    const c = d.content;
    let s = '';
    for (let i = 0; i + 1 < c.length; i += 2) s += String.fromCharCode(c.readUInt16BE(i));
    return s;
  }
  if (d.tag === TAG.UTF8_STRING) return d.content.toString('utf8');
  return d.content.toString('latin1');
}

/** The content of an explicit context tag [n]. */
export function explicit(d: Der | undefined, n: number, what: string): Der {
  const outer = expectTag(d, 0xa0 | n, what);
  const inner = children(outer);
  if (inner.length !== 1) bad(`${what}: [${n}] com ${inner.length} valores`);
  return inner[0];
}

// ---------------------------------------------------------------- writer

function header(tag: number, len: number): Buffer {
  if (len < 0x80) return Buffer.from([tag, len]);
  const bytes: number[] = [];
  for (let v = len; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Uint8Array): Buffer {
  return Buffer.concat([header(tag, content.length), content]);
}

export const derSeq = (...items: Uint8Array[]): Buffer => tlv(TAG.SEQUENCE, Buffer.concat(items));
/** A DER SET OF: members sorted by their encodings, as DER requires. */
export const derSet = (...items: Uint8Array[]): Buffer => tlv(TAG.SET, Buffer.concat([...items].map((i) => Buffer.from(i)).sort(Buffer.compare)));
export const derNull = (): Buffer => Buffer.from([TAG.NULL, 0]);
export const derOctets = (b: Uint8Array): Buffer => tlv(TAG.OCTET_STRING, b);
export const derBitString = (b: Uint8Array): Buffer => tlv(TAG.BIT_STRING, Buffer.concat([Buffer.from([0]), b]));
export const derUtf8 = (s: string): Buffer => tlv(TAG.UTF8_STRING, Buffer.from(s, 'utf8'));
export const derPrintable = (s: string): Buffer => tlv(TAG.PRINTABLE_STRING, Buffer.from(s, 'latin1'));
export const derBmp = (s: string): Buffer => {
  const b = Buffer.alloc(s.length * 2);
  for (let i = 0; i < s.length; i++) b.writeUInt16BE(s.charCodeAt(i), i * 2);
  return tlv(TAG.BMP_STRING, b);
};
/** Explicit context tag [n] around one value. */
export const derExplicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);
/** Implicit constructed context tag [n] with the given content (e.g. SignedData certificates). */
export const derImplicit = (n: number, content: Uint8Array): Buffer => tlv(0xa0 | n, content);

/** INTEGER from a non-negative number or big-endian unsigned bytes. */
export function derInt(v: number | Uint8Array): Buffer {
  let b: Buffer;
  if (typeof v === 'number') {
    const bytes: number[] = [];
    for (let x = v; x > 0; x = Math.floor(x / 256)) bytes.unshift(x & 0xff);
    b = Buffer.from(bytes.length ? bytes : [0]);
  } else {
    let i = 0;
    while (i < v.length - 1 && v[i] === 0) i++;
    b = Buffer.from(v.subarray(i));
    if (b.length === 0) b = Buffer.from([0]);
  }
  if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(TAG.INTEGER, b);
}

export function derOid(oid: string): Buffer {
  const parts = oid.split('.').map(Number);
  const out: number[] = [];
  const push = (v: number): void => {
    const bytes = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) bytes.unshift((x & 0x7f) | 0x80);
    out.push(...bytes);
  };
  push(parts[0] * 40 + parts[1]);
  for (const p of parts.slice(2)) push(p);
  return tlv(TAG.OID, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280, section 4.1.2.5). */
export function derTime(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(TAG.UTC_TIME, Buffer.from(`${iso.slice(2)}Z`)) : tlv(TAG.GENERALIZED_TIME, Buffer.from(`${iso}Z`));
}

/** AlgorithmIdentifier with NULL (or no) parameters. */
export const derAlg = (oid: string, params: Uint8Array | null = derNull()): Buffer => (params ? derSeq(derOid(oid), params) : derSeq(derOid(oid)));
