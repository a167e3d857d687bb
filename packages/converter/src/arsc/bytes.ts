import { ConverterError, type ConverterErrorCode } from '../errors.js';

/**
 * Bounds-checked little-endian reads over one buffer. Every read past the end throws a
 * ConverterError (never a RangeError), naming what was being read and the byte offset.
 */
export class ByteReader {
  readonly buf: Uint8Array;
  readonly length: number;
  private readonly view: DataView;
  /** The same bytes as a Buffer, for decoding text (made when first needed). */
  private text: Buffer | undefined;

  constructor(buf: Uint8Array, readonly code: ConverterErrorCode) {
    this.buf = buf;
    this.length = buf.byteLength;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  fail(detail: string): never {
    throw new ConverterError(this.code, detail);
  }

  check(offset: number, size: number, what: string): void {
    if (!Number.isInteger(offset) || offset < 0 || size < 0 || offset + size > this.length) {
      this.fail(`${what}: ${size} bytes at offset ${offset} run past the end (${this.length} bytes)`);
    }
  }

  u8(offset: number, what = 'u8'): number {
    this.check(offset, 1, what);
    return this.view.getUint8(offset);
  }

  u16(offset: number, what = 'u16'): number {
    this.check(offset, 2, what);
    return this.view.getUint16(offset, true);
  }

  u32(offset: number, what = 'u32'): number {
    this.check(offset, 4, what);
    return this.view.getUint32(offset, true);
  }

  i32(offset: number, what = 'i32'): number {
    this.check(offset, 4, what);
    return this.view.getInt32(offset, true);
  }

  bytes(offset: number, size: number, what = 'bytes'): Uint8Array {
    this.check(offset, size, what);
    return this.buf.subarray(offset, offset + size);
  }

  /**
   * The bytes as text when they are all ASCII (what a UTF-8 decoder gives for them), else
   * undefined. Most strings of a string pool are short ASCII names and paths: this takes them
   * without a view and a TextDecoder call each.
   */
  asciiText(offset: number, size: number, what = 'ascii text'): string | undefined {
    this.check(offset, size, what);
    const b = this.buf;
    for (let i = offset, end = offset + size; i < end; i++) if (b[i]! >= 0x80) return undefined;
    return this.asBuffer().toString('latin1', offset, offset + size);
  }

  /** `units` UTF-16LE code units as a string, unpaired surrogates kept as they are. */
  utf16Text(offset: number, units: number, what = 'utf16 text'): string {
    this.check(offset, units * 2, what);
    return this.asBuffer().toString('utf16le', offset, offset + units * 2);
  }

  private asBuffer(): Buffer {
    return (this.text ??= Buffer.isBuffer(this.buf) ? this.buf : Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }

  /** A fixed-size UTF-16 field (package names, overlayable names): up to the first NUL. */
  utf16Fixed(offset: number, units: number, what = 'utf16 field'): string {
    this.check(offset, units * 2, what);
    const out: number[] = [];
    for (let i = 0; i < units; i++) {
      const c = this.view.getUint16(offset + i * 2, true);
      if (c === 0) break;
      out.push(c);
    }
    return String.fromCharCode(...out);
  }
}

export function hex(n: number, width = 8): string {
  return '0x' + (n >>> 0).toString(16).padStart(width, '0');
}
