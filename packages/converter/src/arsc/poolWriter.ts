/**
 * Builds a ResStringPool chunk the way aapt2's StringPool flattens one: styled strings first
 * (style i belongs to string i), then plain strings ordered by priority (stable), each distinct
 * (string, priority) pair once. Users take references while writing their chunks and patch the
 * final indices in once the pool is laid out (`finalize`).
 */
import { ConverterError } from '../errors.js';
import { ByteWriter } from './byteWriter.js';
import { ChunkType } from './chunk.js';
import { STRING_POOL_FLAG_UTF8, STRING_POOL_HEADER_SIZE, STRING_POOL_SPAN_END } from './stringPool.js';

/** The lowest priority: strings with no resource id (aapt2's kLowPriority). */
export const LOW_PRIORITY = 0xffffffff;

export interface PoolSpan {
  readonly name: string;
  readonly firstChar: number;
  readonly lastChar: number;
}

/** A string's place in the pool; `index` is known after `finalize`. */
export interface PoolRef {
  index: number;
  readonly value: string;
  readonly priority: number;
  readonly spans?: readonly PoolSpan[];
}

/** Longest string (UTF-8 bytes, or UTF-16 units) a pool length field can encode. */
const MAX_UTF8_LENGTH = 0x7fff;
const MAX_UTF16_LENGTH = 0x7fffffff;

export class StringPoolBuilder {
  /** Plain strings by priority, then value (no key text built per reference: XML files make many). */
  private readonly plain = new Map<number, Map<string, PoolRef>>();
  /** The plain strings in the order first referenced. */
  private readonly plainOrder: PoolRef[] = [];
  private readonly styled: PoolRef[] = [];
  private order: PoolRef[] | undefined;

  constructor(readonly utf8: boolean) {}

  /** A plain string (deduplicated by value and priority). */
  ref(value: string, priority = LOW_PRIORITY): PoolRef {
    let byValue = this.plain.get(priority);
    if (!byValue) this.plain.set(priority, (byValue = new Map()));
    let r = byValue.get(value);
    if (!r) {
      r = { index: -1, value, priority };
      byValue.set(value, r);
      this.plainOrder.push(r);
      this.order = undefined;
    }
    return r;
  }

  /** A styled string: never shared, always among the first strings of the pool. */
  styledRef(value: string, spans: readonly PoolSpan[]): PoolRef {
    const r: PoolRef = { index: -1, value, priority: 0, spans };
    this.styled.push(r);
    for (const s of spans) this.ref(s.name);
    this.order = undefined;
    return r;
  }

  /** Lays the pool out: assigns every reference its index. */
  finalize(): readonly PoolRef[] {
    if (this.order) return this.order;
    const plain = [...this.plainOrder];
    // Array.prototype.sort is stable: equal priorities keep the order they were referenced in.
    plain.sort((a, b) => (a.priority === b.priority ? 0 : a.priority < b.priority ? -1 : 1));
    this.order = [...this.styled, ...plain];
    this.order.forEach((r, i) => (r.index = i));
    return this.order;
  }

  get size(): number {
    return this.finalize().length;
  }

  /** The STRING_POOL chunk. */
  write(out: ByteWriter): void {
    const strings = this.finalize();
    const styleCount = this.styled.length;
    const data = new ByteWriter(256 + strings.length * 16);
    const offsets: number[] = [];
    for (const s of strings) {
      offsets.push(data.length);
      if (this.utf8) writeUtf8(data, s.value);
      else writeUtf16(data, s.value);
    }
    data.align4();
    const styles = new ByteWriter(styleCount * 16 + 8);
    const styleOffsets: number[] = [];
    for (const s of this.styled) {
      styleOffsets.push(styles.length);
      for (const sp of s.spans ?? []) styles.u32(this.ref(sp.name).index).u32(sp.firstChar).u32(sp.lastChar);
      styles.u32(STRING_POOL_SPAN_END);
    }
    if (styleCount > 0) styles.u32(STRING_POOL_SPAN_END).u32(STRING_POOL_SPAN_END);

    const start = out.startChunk(ChunkType.STRING_POOL, STRING_POOL_HEADER_SIZE);
    const stringsStart = STRING_POOL_HEADER_SIZE + (strings.length + styleCount) * 4;
    out
      .u32(strings.length)
      .u32(styleCount)
      .u32(this.utf8 ? STRING_POOL_FLAG_UTF8 : 0)
      .u32(strings.length > 0 ? stringsStart : 0)
      .u32(styleCount > 0 ? stringsStart + data.length : 0);
    for (const o of offsets) out.u32(o);
    for (const o of styleOffsets) out.u32(o);
    out.bytes(data.written());
    out.bytes(styles.written());
    out.endChunk(start);
  }
}

function tooLong(value: string): never {
  throw new ConverterError('INVALID_AAB', `texto longo demais para um pool de strings (${value.length} caracteres): "${value.slice(0, 40)}…"`);
}

function writeLength8(out: ByteWriter, n: number): void {
  if (n > 0x7f) out.u8(0x80 | (n >> 8)).u8(n & 0xff);
  else out.u8(n);
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) >= 0x80) return false;
  return true;
}

function writeUtf8(out: ByteWriter, value: string): void {
  if (value.length > MAX_UTF8_LENGTH) tooLong(value);
  // Most pool strings are ASCII: written as they are, without a Buffer for each.
  if (isAscii(value)) {
    writeLength8(out, value.length);
    writeLength8(out, value.length);
    out.ascii(value).u8(0);
    return;
  }
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > MAX_UTF8_LENGTH) tooLong(value);
  writeLength8(out, value.length);
  writeLength8(out, bytes.length);
  out.bytes(bytes).u8(0);
}

function writeUtf16(out: ByteWriter, value: string): void {
  const n = value.length;
  if (n > MAX_UTF16_LENGTH) tooLong(value);
  if (n > 0x7fff) out.u16(0x8000 | (n >>> 16)).u16(n & 0xffff);
  else out.u16(n);
  for (let i = 0; i < n; i++) out.u16(value.charCodeAt(i));
  out.u16(0);
}
