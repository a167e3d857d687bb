/**
 * A growable little-endian byte buffer for writing ResourceTypes.h chunks (resources.arsc and
 * binary XML). Chunks are written header first; their sizes are patched once the body is known.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(initial = 4096) {
    this.buf = new Uint8Array(Math.max(64, initial));
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  private grow(need: number): void {
    if (this.pos + need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.grow(1);
    this.view.setUint8(this.pos, v & 0xff);
    this.pos += 1;
    return this;
  }

  u16(v: number): this {
    this.grow(2);
    this.view.setUint16(this.pos, v & 0xffff, true);
    this.pos += 2;
    return this;
  }

  u32(v: number): this {
    this.grow(4);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.grow(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  zeros(n: number): this {
    return this.fill(0, n);
  }

  /** `n` bytes of `byte` at once (a type chunk's offsets, all 0xFFFFFFFF until set). */
  fill(byte: number, n: number): this {
    this.grow(n);
    this.buf.fill(byte, this.pos, this.pos + n);
    this.pos += n;
    return this;
  }

  /** A fixed-size UTF-16 field of `units` code units, NUL-terminated within it (truncated if longer). */
  utf16Fixed(s: string, units: number): this {
    const n = Math.min(s.length, units - 1);
    for (let i = 0; i < units; i++) this.u16(i < n ? s.charCodeAt(i) : 0);
    return this;
  }

  align4(): this {
    while (this.pos % 4 !== 0) this.u8(0);
    return this;
  }

  setU16(at: number, v: number): void {
    this.view.setUint16(at, v & 0xffff, true);
  }

  setU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0, true);
  }

  /** Starts a chunk: type, header size, and a size patched by `endChunk`. Returns the chunk's start. */
  startChunk(type: number, headerSize: number): number {
    const start = this.pos;
    this.u16(type).u16(headerSize).u32(0);
    return start;
  }

  endChunk(start: number): void {
    this.setU32(start + 4, this.pos - start);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }

  /** The bytes written so far, not copied: valid until the next write. */
  written(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** A string of code units below 0x80 (checked by the caller), one byte each. */
  ascii(s: string): this {
    const n = s.length;
    this.grow(n);
    const buf = this.buf;
    const at = this.pos;
    for (let i = 0; i < n; i++) buf[at + i] = s.charCodeAt(i);
    this.pos += n;
    return this;
  }
}
