/**
 * Decodes a message of the converter's schemas straight into the plain object protobufjs gives as
 * `type.toObject(type.decode(bytes), { longs: Number, enums: Number, arrays: true })`: the fields
 * present on the wire (scalars last one wins, a repeated sub-message replaced), every repeated
 * field as an array, enums and 64-bit integers as numbers, bytes as views of the input. Read from
 * the descriptors kept as source (descriptors.ts), so neither the schema is parsed nor decoders
 * generated, and no intermediate message objects are made: building APKs decodes a bundle's whole
 * resource table and every XML file, where protobufjs's setup, decoding and copying were a third
 * of the main thread's time. Same limits as protobufjs: 100 nested messages, bounds checked
 * (RangeError), unknown fields skipped, groups refused.
 */
import type { FieldDescriptor, MessageDescriptors } from './describe.js';
import { MESSAGE_DESCRIPTORS } from './descriptors.js';

const RECURSION_LIMIT = 100;

const enum Kind {
  Message,
  Double,
  Float,
  Int32,
  Uint32,
  Sint32,
  Fixed32,
  Sfixed32,
  Int64,
  Uint64,
  Sint64,
  Fixed64,
  Sfixed64,
  Bool,
  String,
  Bytes,
}

const KINDS: Readonly<Record<string, Kind>> = {
  double: Kind.Double,
  float: Kind.Float,
  int32: Kind.Int32,
  uint32: Kind.Uint32,
  sint32: Kind.Sint32,
  fixed32: Kind.Fixed32,
  sfixed32: Kind.Sfixed32,
  int64: Kind.Int64,
  uint64: Kind.Uint64,
  sint64: Kind.Sint64,
  fixed64: Kind.Fixed64,
  sfixed64: Kind.Sfixed64,
  bool: Kind.Bool,
  string: Kind.String,
  bytes: Kind.Bytes,
};

interface Field {
  readonly name: string;
  readonly kind: Kind;
  readonly repeated: boolean;
  /** The sub-message's plan (set once every plan of the schema exists: types refer to each other). */
  sub?: Plan;
}

interface Plan {
  /** Fields by number (sparse). */
  readonly byId: (Field | undefined)[];
  readonly repeatedNames: readonly string[];
}

const plans = new Map<MessageDescriptors, Map<string, Plan>>();

function planOf(descriptors: MessageDescriptors, name: string): Plan {
  let forSet = plans.get(descriptors);
  if (!forSet) plans.set(descriptors, (forSet = new Map()));
  const known = forSet.get(name);
  if (known) return known;
  const fields: readonly FieldDescriptor[] | undefined = descriptors[name];
  if (!fields) throw new Error(`fast-decode: no message type ${name}`);
  const byId: (Field | undefined)[] = [];
  const plan: Plan = { byId, repeatedNames: fields.filter((f) => f[4]).map((f) => f[0]) };
  forSet.set(name, plan);
  for (const [fieldName, id, kind, type, repeated] of fields) {
    if (kind === 'x') throw new Error(`fast-decode: ${name}.${fieldName} is not supported`);
    const field: Field = { name: fieldName, kind: kind === 'm' ? Kind.Message : KINDS[type], repeated };
    if (field.kind === undefined) throw new Error(`fast-decode: ${name}.${fieldName} has unknown type ${type}`);
    byId[id] = field;
    if (kind === 'm') field.sub = planOf(descriptors, type);
  }
  return plan;
}

const utf8 = new TextDecoder('utf-8');

class Reader {
  pos = 0;
  private readonly view: DataView;

  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private outOfRange(n: number): never {
    throw RangeError(`index out of range: ${this.pos} + ${n} > ${this.buf.length}`);
  }

  uint32(): number {
    const b = this.buf;
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.pos >= b.length) this.outOfRange(1);
      const byte = b[this.pos++];
      if (shift < 28) value |= (byte & 0x7f) << shift;
      else value |= (byte & 0x0f) << 28;
      if (byte < 0x80) return value >>> 0;
    }
    // A 64-bit varint for a 32-bit field: the high bytes are dropped, as protobufjs does.
    for (let i = 0; i < 5; i++) {
      if (this.pos >= b.length) this.outOfRange(1);
      if (b[this.pos++] < 0x80) return value >>> 0;
    }
    throw Error('invalid varint encoding');
  }

  /** A varint as its low and high 32 bits. */
  private varint64(): [number, number] {
    const b = this.buf;
    let lo = 0;
    let hi = 0;
    let i = 0;
    for (; i < 4; i++) {
      if (this.pos >= b.length) this.outOfRange(1);
      const byte = b[this.pos++];
      lo = (lo | ((byte & 0x7f) << (i * 7))) >>> 0;
      if (byte < 0x80) return [lo, 0];
    }
    if (this.pos >= b.length) this.outOfRange(1);
    let byte = b[this.pos++];
    lo = (lo | ((byte & 0x7f) << 28)) >>> 0;
    hi = (byte & 0x7f) >> 4;
    if (byte < 0x80) return [lo, hi];
    for (i = 0; i < 5; i++) {
      if (this.pos >= b.length) this.outOfRange(1);
      byte = b[this.pos++];
      hi = (hi | ((byte & 0x7f) << (i * 7 + 3))) >>> 0;
      if (byte < 0x80) return [lo, hi];
    }
    throw Error('invalid varint encoding');
  }

  int64(unsigned: boolean): number {
    const [lo, hi] = this.varint64();
    return toNumber(lo, hi, unsigned);
  }

  sint64(): number {
    const [lo, hi] = this.varint64();
    // Zig-zag over 64 bits.
    const mask = -(lo & 1);
    const nlo = (((lo >>> 1) | (hi << 31)) ^ mask) >>> 0;
    const nhi = ((hi >>> 1) ^ mask) >>> 0;
    return toNumber(nlo, nhi, false);
  }

  fixed32(): number {
    if (this.pos + 4 > this.buf.length) this.outOfRange(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  fixed64(signed: boolean): number {
    if (this.pos + 8 > this.buf.length) this.outOfRange(8);
    const lo = this.view.getUint32(this.pos, true);
    const hi = this.view.getUint32(this.pos + 4, true);
    this.pos += 8;
    return toNumber(lo, hi, !signed);
  }

  float(): number {
    if (this.pos + 4 > this.buf.length) this.outOfRange(4);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  double(): number {
    if (this.pos + 8 > this.buf.length) this.outOfRange(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  bytes(): Uint8Array {
    const n = this.uint32();
    const start = this.pos;
    if (start + n > this.buf.length) this.outOfRange(n);
    this.pos += n;
    return this.buf.subarray(start, start + n);
  }

  string(): string {
    const n = this.uint32();
    const start = this.pos;
    if (start + n > this.buf.length) this.outOfRange(n);
    this.pos += n;
    return utf8.decode(this.buf.subarray(start, start + n));
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint64();
        return;
      case 1:
        if (this.pos + 8 > this.buf.length) this.outOfRange(8);
        this.pos += 8;
        return;
      case 2: {
        const n = this.uint32();
        if (this.pos + n > this.buf.length) this.outOfRange(n);
        this.pos += n;
        return;
      }
      case 5:
        if (this.pos + 4 > this.buf.length) this.outOfRange(4);
        this.pos += 4;
        return;
      default:
        throw Error(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
  }
}

/** protobufjs's LongBits.toNumber. */
function toNumber(lo: number, hi: number, unsigned: boolean): number {
  if (!unsigned && hi >>> 31) {
    const nlo = (~lo + 1) >>> 0;
    let nhi = ~hi >>> 0;
    if (!nlo) nhi = (nhi + 1) >>> 0;
    return -(nlo + nhi * 4294967296);
  }
  return lo + hi * 4294967296;
}

/** The wire type each kind is written with when not packed. */
function wireTypeOf(kind: Kind): number {
  switch (kind) {
    case Kind.Double:
    case Kind.Fixed64:
    case Kind.Sfixed64:
      return 1;
    case Kind.Float:
    case Kind.Fixed32:
    case Kind.Sfixed32:
      return 5;
    case Kind.Message:
    case Kind.String:
    case Kind.Bytes:
      return 2;
    default:
      return 0;
  }
}

function scalar(r: Reader, kind: Kind): unknown {
  switch (kind) {
    case Kind.Double:
      return r.double();
    case Kind.Float:
      return r.float();
    case Kind.Int32:
      return r.uint32() | 0;
    case Kind.Uint32:
      return r.uint32();
    case Kind.Sint32: {
      const v = r.uint32();
      return (v >>> 1) ^ -(v & 1);
    }
    case Kind.Fixed32:
      return r.fixed32();
    case Kind.Sfixed32:
      return r.fixed32() | 0;
    case Kind.Int64:
      return r.int64(false);
    case Kind.Uint64:
      return r.int64(true);
    case Kind.Sint64:
      return r.sint64();
    case Kind.Fixed64:
      return r.fixed64(false);
    case Kind.Sfixed64:
      return r.fixed64(true);
    case Kind.Bool:
      return r.uint32() !== 0;
    case Kind.String:
      return r.string();
    case Kind.Bytes:
      return r.bytes();
    default:
      throw Error('fast-decode: a message is no scalar');
  }
}

function decodeMessage(r: Reader, plan: Plan, end: number, depth: number): Record<string, unknown> {
  if (depth > RECURSION_LIMIT) throw Error('maximum nesting depth exceeded');
  const m: Record<string, unknown> = {};
  for (const name of plan.repeatedNames) m[name] = [];
  while (r.pos < end) {
    const tag = r.uint32();
    const field = plan.byId[tag >>> 3];
    const wireType = tag & 7;
    if (field === undefined) {
      if (wireType === 3 || wireType === 4) throw Error(`groups are not supported (field ${tag >>> 3})`);
      r.skip(wireType);
      continue;
    }
    let value: unknown;
    if (field.kind === Kind.Message) {
      if (wireType !== 2) throw Error(`invalid wire type ${wireType} for ${field.name}`);
      const n = r.uint32();
      const stop = r.pos + n;
      if (stop > end) throw RangeError(`index out of range: ${r.pos} + ${n} > ${end}`);
      value = decodeMessage(r, field.sub!, stop, depth + 1);
    } else if (field.repeated && wireType === 2 && field.kind !== Kind.String && field.kind !== Kind.Bytes) {
      // Packed: every value of the run.
      const n = r.uint32();
      const stop = r.pos + n;
      if (stop > end) throw RangeError(`index out of range: ${r.pos} + ${n} > ${end}`);
      const list = m[field.name] as unknown[];
      while (r.pos < stop) list.push(scalar(r, field.kind));
      continue;
    } else {
      if (wireType !== wireTypeOf(field.kind)) throw Error(`invalid wire type ${wireType} for ${field.name}`);
      value = scalar(r, field.kind);
    }
    if (field.repeated) (m[field.name] as unknown[]).push(value);
    else m[field.name] = value;
  }
  if (r.pos > end) throw RangeError(`index out of range: ${r.pos} > ${end}`);
  return m;
}

/** The plain object of a message of type `name` (`aapt.pb.ResourceTable`) of the converter's schemas. */
export function fastDecode(name: string, bytes: Uint8Array, descriptors: MessageDescriptors = MESSAGE_DESCRIPTORS): Record<string, unknown> {
  const r = new Reader(bytes);
  return decodeMessage(r, planOf(descriptors, name), bytes.length, 0);
}
