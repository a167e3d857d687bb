/**
 * The growable buffer the fast encoder (fastEncode.ts) and its generated encoders
 * (generated/encoders.ts) write protobuf wire format into, with protobufjs's writer rules: varints,
 * fixed-width numbers, length-delimited strings and bytes. In a module of its own so the generated
 * encoders can name its types without importing the encoder that imports them.
 */
export type Message = Record<string, unknown>;
export type Encode = (w: Writer, m: Message, q: number) => void;

const f32 = new Float32Array(1);
const f32Bytes = new Uint8Array(f32.buffer);
const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** Largest buffer a scratch writer keeps between encodes. */
const SCRATCH_KEPT = 4 * 1024 * 1024;

/** One growable buffer, reused by every encode (the result is copied out). */
export class Writer {
  buf: Buffer = Buffer.allocUnsafe(64 * 1024);
  pos = 0;

  /**
   * The bytes written, as a Buffer of their own; the writer is then free for the next encode, and
   * a buffer grown past 4 MiB (a large table) is let go rather than kept for the thread's life.
   */
  copyOut(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.release();
    return out;
  }

  /** Lets a buffer grown past 4 MiB go (a scratch writer between encodes). */
  release(): void {
    if (this.buf.length > SCRATCH_KEPT) this.buf = Buffer.allocUnsafe(64 * 1024);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  uint32(value: number): void {
    let v = value >>> 0;
    this.ensure(5);
    const b = this.buf;
    while (v > 127) {
      b[this.pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    b[this.pos++] = v;
  }

  /** protobufjs LongBits.fromNumber + writeVarint64. */
  varint64(value: number): void {
    let lo: number;
    let hi: number;
    if (value === 0) {
      lo = 0;
      hi = 0;
    } else {
      const sign = value < 0;
      if (sign) value = -value;
      lo = value >>> 0;
      hi = ((value - lo) / 4294967296) >>> 0;
      if (sign) {
        hi = ~hi >>> 0;
        lo = ~lo >>> 0;
        if (++lo > 4294967295) {
          lo = 0;
          if (++hi > 4294967295) hi = 0;
        }
      }
    }
    this.ensure(10);
    const b = this.buf;
    while (hi) {
      b[this.pos++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      b[this.pos++] = (lo & 127) | 128;
      lo = lo >>> 7;
    }
    b[this.pos++] = lo;
  }

  int32(value: number): void {
    if (value < 0) this.varint64(value);
    else this.uint32(value);
  }

  sint32(value: number): void {
    this.uint32(((value << 1) ^ (value >> 31)) >>> 0);
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  float(value: number): void {
    f32[0] = value;
    this.ensure(4);
    this.buf.set(f32Bytes, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    f64[0] = value;
    this.ensure(8);
    this.buf.set(f64Bytes, this.pos);
    this.pos += 8;
  }

  string(value: string): void {
    // Most strings (names, paths, attribute values) are short ASCII: their length is their byte
    // count and a one-byte varint, and their bytes are their char codes (what utf8Write writes).
    const n = value.length;
    if (n < 128) {
      this.ensure(n + 1);
      const b = this.buf;
      let p = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 128) break;
        b[p++] = c;
      }
      if (i === n) {
        b[this.pos] = n;
        this.pos = p;
        return;
      }
    }
    const len = Buffer.byteLength(value);
    this.uint32(len);
    if (!len) return;
    this.ensure(len);
    if (value.length < 40) this.pos += utf8Write(value, this.buf, this.pos);
    else this.pos += this.buf.write(value, this.pos, len, 'utf8');
  }

  /** A string field as the encoder writes one: its tag and the string, nothing when empty (proto3's default). */
  stringField(tag: number, value: string): void {
    if (value === '') return;
    this.uint32(tag);
    this.string(value);
  }

  bytes(value: Uint8Array | string): void {
    const data = typeof value === 'string' ? Buffer.from(value, 'base64') : value;
    const len = data.length >>> 0;
    this.uint32(len);
    if (!len) return;
    this.ensure(len);
    this.buf.set(data, this.pos);
    this.pos += len;
  }

  /** Reserves one byte for a length; `ldelim` widens it when the body needs more. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  ldelim(at: number): void {
    const len = this.pos - at - 1;
    if (len < 128) {
      this.buf[at] = len;
      return;
    }
    let size = 1;
    for (let v = len >>> 7; v > 0; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = len;
    let p = at;
    while (v > 127) {
      this.buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[p] = v;
  }
}

/** @protobufjs/utf8 write: surrogate pairs as 4 bytes, lone surrogates as 3. */
function utf8Write(s: string, buf: Buffer, offset: number): number {
  const start = offset;
  for (let i = 0; i < s.length; ++i) {
    let c1 = s.charCodeAt(i);
    let c2: number;
    if (c1 < 128) {
      buf[offset++] = c1;
    } else if (c1 < 2048) {
      buf[offset++] = (c1 >> 6) | 192;
      buf[offset++] = (c1 & 63) | 128;
    } else if ((c1 & 0xfc00) === 0xd800 && ((c2 = s.charCodeAt(i + 1)) & 0xfc00) === 0xdc00) {
      c1 = 0x10000 + ((c1 & 0x03ff) << 10) + (c2 & 0x03ff);
      ++i;
      buf[offset++] = (c1 >> 18) | 240;
      buf[offset++] = ((c1 >> 12) & 63) | 128;
      buf[offset++] = ((c1 >> 6) & 63) | 128;
      buf[offset++] = (c1 & 63) | 128;
    } else {
      buf[offset++] = (c1 >> 12) | 224;
      buf[offset++] = ((c1 >> 6) & 63) | 128;
      buf[offset++] = (c1 & 63) | 128;
    }
  }
  return offset - start;
}
