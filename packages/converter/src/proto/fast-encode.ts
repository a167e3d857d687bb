/**
 * A protobuf encoder that writes exactly the bytes protobufjs's `Type.encode(obj).finish()`
 * writes for the same plain object, without protobufjs's encoders (its code generator took
 * ~0.1 s at start) and their linked list of write operations.
 *
 * One small function per message type is generated from the protobufjs reflection of the type
 * (`compile`), field by field, with protobufjs's rules:
 * fields in field-number order; a singular field is written when it is an own property that is
 * not null/undefined (even when equal to its default); a repeated field when non-empty, packed
 * where protobufjs packs it; enums as int32; negative int32 as 10-byte varints; strings sized
 * with Buffer.byteLength and written as @protobufjs/utf8 writes short ones (< 40 UTF-16 units,
 * lone surrogates as 3 bytes) and Buffer's utf8 writer long ones; the same depth limit (100).
 * Anything this encoder does not know (maps, groups) falls back to protobufjs for that type.
 */
import type protobuf from 'protobufjs';
import { describeMessages, type MessageDescriptors } from './describe.js';
import { MESSAGE_DESCRIPTORS } from './descriptors.js';
import { RECURSION_LIMIT, encoderBody, encoderName } from './encoderSource.js';
import { ENCODERS } from './generated/encoders.js';

export type Message = Record<string, unknown>;
export type Encode = (w: Writer, m: Message, q: number) => void;


const f32 = new Float32Array(1);
const f32Bytes = new Uint8Array(f32.buffer);
const f64 = new Float64Array(1);
const f64Bytes = new Uint8Array(f64.buffer);

/** One growable buffer, reused by every encode (the result is copied out). */
export class Writer {
  buf: Buffer = Buffer.allocUnsafe(64 * 1024);
  pos = 0;

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

const hasOwn = (m: object, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);

/**
 * A message type as the encoder takes it: its full name, the descriptors it is compiled from, and
 * how to get a protobufjs type of the same schema by name, only when needed (a field left to
 * protobufjs; AABIFY_CHECK_ENCODE).
 */
export interface MessageRef {
  readonly name: string;
  readonly descriptors: MessageDescriptors;
  lookup(name: string): protobuf.Type;
}

/** Compiled encoders, by descriptor set and full name. */
const compiled = new Map<MessageDescriptors, Map<string, Encode>>();
/** Descriptors of the schemas met as protobufjs types (tests, the bundle schema). */
const described = new WeakMap<protobuf.Root, MessageDescriptors>();

/** The reference to a protobufjs type: described from its schema once. */
function refOf(type: protobuf.Type | MessageRef): MessageRef {
  // A protobufjs type has no `descriptors` (told apart without loading protobufjs: protobufjs.ts).
  if ('descriptors' in type) return type;
  let descriptors = described.get(type.root);
  if (!descriptors) {
    descriptors = describeMessages(type.root);
    described.set(type.root, descriptors);
  }
  return { name: type.fullName.slice(1), descriptors, lookup: (name) => type.root.lookupType(name) };
}

/**
 * One function per message type, generated from its fields (`new Function`): each field's read
 * is then a property access of its own, which V8 keeps fast for the one object shape it sees.
 * Shared closures per field kind (an earlier version) read every field of every type through the
 * same `m[name]`, which V8 had to treat as a generic lookup: ~2× the encoding time of a table.
 */
function compile(ref: MessageRef): Encode {
  let forSet = compiled.get(ref.descriptors);
  if (!forSet) {
    forSet = new Map();
    compiled.set(ref.descriptors, forSet);
  }
  const known = forSet.get(ref.name) ?? (ref.descriptors === MESSAGE_DESCRIPTORS ? ENCODERS[ref.name] : undefined);
  if (known) return known;
  const fields = ref.descriptors[ref.name];
  if (!fields) throw new Error(`fast-encode: no message type ${ref.name}`);
  // Registered before the fields compile, so recursive types (XmlElement → XmlNode) resolve:
  // a type met again while compiling calls the finished encoder through this.
  let ready: Encode | undefined;
  forSet.set(ref.name, (w, m, q) => ready!(w, m, q));
  const subs: Encode[] = [];
  const body = encoderBody(fields, (type) => `S[${subs.push(compile({ ...ref, name: type })) - 1}]`);
  if (body === undefined) {
    ready = fallback(ref);
    forSet.set(ref.name, ready);
    return ready;
  }
  // The code is built from the schema's field numbers and JSON-quoted names only.
  const make = new Function('S', 'hasOwn', `return function ${encoderName(ref.name)}(w, m, q) {\nlet v, at;\n${body}\n};`) as (
    s: Encode[],
    own: typeof hasOwn,
  ) => Encode;
  ready = make(subs, hasOwn);
  forSet.set(ref.name, ready);
  return ready;
}

/** A type this encoder does not handle: protobufjs encodes it, its bytes are spliced in. */
function fallback(ref: MessageRef): Encode {
  return (w, m, q) => {
    if (q > RECURSION_LIMIT) throw Error('max depth exceeded');
    const bytes = ref.lookup(ref.name).encode(m).finish();
    w.ensure(bytes.length);
    w.buf.set(bytes, w.pos);
    w.pos += bytes.length;
  };
}

const scratch = new Writer();

/** The bytes protobufjs's `type.encode(message).finish()` would give, as a Buffer of their own. */
export function fastEncode(type: protobuf.Type | MessageRef, message: object): Buffer {
  const encode = compile(refOf(type));
  scratch.pos = 0;
  encode(scratch, message as Message, 0);
  const out = Buffer.allocUnsafe(scratch.pos);
  scratch.buf.copy(out, 0, 0, scratch.pos);
  if (scratch.buf.length > 4 * 1024 * 1024) scratch.buf = Buffer.allocUnsafe(64 * 1024);
  return out;
}

/** AABIFY_CHECK_ENCODE=1: every encode is also checked by protobufjs (verify, encode) and must give the same bytes. */
const CHECK_ENCODE = process.env.AABIFY_CHECK_ENCODE === '1';

/**
 * `type.encode(message).finish()`, byte for byte, through the fast encoder. The message is a plain
 * object with the schema's types (numbers for enums and integers); with AABIFY_CHECK_ENCODE=1 it
 * is also verified and encoded by protobufjs, and any difference fails.
 */
export function encodeChecked(type: protobuf.Type | MessageRef, message: object): Buffer {
  const fast = fastEncode(type, message);
  if (CHECK_ENCODE) {
    const t = 'descriptors' in type ? type.lookup(type.name) : type;
    const err = t.verify(message);
    if (err) throw new Error(`${t.name}: ${err}`);
    const slow = t.encode(t.fromObject(message)).finish();
    if (Buffer.compare(Buffer.from(slow), fast) !== 0) throw new Error(`fast-encode differs for ${t.name}`);
  }
  return fast;
}
