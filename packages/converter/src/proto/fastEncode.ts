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
import { Writer, type Encode, type Message } from './protoWriter.js';

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
  return scratch.copyOut();
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
