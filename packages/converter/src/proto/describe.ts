/**
 * What the fast encoder (fastEncode.ts) needs of a schema: each message type's fields, in
 * field-number order. Taken from protobufjs's reflection of a parsed schema (`describeMessages`);
 * for the converter's two schemas (aapt.pb, android.bundle) it is also kept as source
 * (descriptors.ts, checked against the schemas by a test), so a conversion encodes without
 * parsing them at start (~7 ms).
 */
import type protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';

/**
 * One field: its name, number, kind, type and whether repeated and packed. Kind `s` is a scalar
 * (enums as `int32`), `m` a message (type: its full name, without the leading dot), `x` what the
 * fast encoder leaves to protobufjs (maps, groups, anything else).
 */
export type FieldDescriptor = readonly [name: string, id: number, kind: 's' | 'm' | 'x', type: string, repeated: boolean, packed: boolean];
/** Each message type's fields, by full name (`aapt.pb.XmlNode`). */
export type MessageDescriptors = Readonly<Record<string, readonly FieldDescriptor[]>>;

/** Scalar types the fast encoder writes itself. */
export const SCALAR_TYPES: ReadonlySet<string> = new Set(['double', 'float', 'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'int64', 'uint64', 'bool', 'string', 'bytes']);

function describeField(raw: protobuf.Field): FieldDescriptor {
  const { Type, Enum } = protobufjs();
  const field = raw.resolve();
  if (field.map || field.delimited) return [field.name, field.id, 'x', field.type, field.repeated, false];
  if (field.resolvedType instanceof Type) return [field.name, field.id, 'm', field.resolvedType.fullName.slice(1), field.repeated, false];
  const type = field.resolvedType instanceof Enum ? 'int32' : field.type;
  return [field.name, field.id, SCALAR_TYPES.has(type) ? 's' : 'x', type, field.repeated, field.repeated && Boolean(field.packed)];
}

/** Every message type of a parsed schema, nested ones included. */
export function describeMessages(root: protobuf.Root): MessageDescriptors {
  const { Type, Namespace } = protobufjs();
  const out: Record<string, FieldDescriptor[]> = {};
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof Type) {
        out[nested.fullName.slice(1)] = nested.fieldsArray
          .slice()
          .sort((a, b) => a.id - b.id)
          .map(describeField);
      }
      if (nested instanceof Namespace) visit(nested);
    }
  };
  visit(root);
  return out;
}

/** descriptors.ts as it must read for these descriptors (written by scripts/proto-descriptors.ts). */
export function descriptorsSource(descriptors: MessageDescriptors): string {
  const lines = Object.entries(descriptors).map(([name, fields]) => `  ${JSON.stringify(name)}: ${JSON.stringify(fields)},`);
  return [
    '// Generated from aaptSchema.ts and bundleSchema.ts by `npx tsx packages/converter/scripts/proto-descriptors.ts`;',
    '// do not edit. The fields of every aapt.pb and android.bundle message (describe.ts), so a conversion',
    '// encodes without parsing the schemas at start. test/fastEncode.test.ts fails when this no longer',
    '// matches them.',
    "import type { MessageDescriptors } from './describe.js';",
    '',
    'export const MESSAGE_DESCRIPTORS: MessageDescriptors = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

/** The descriptors of the given schemas together: what descriptors.ts holds for the converter's two. */
export function converterDescriptors(schemas: readonly string[]): MessageDescriptors {
  return Object.assign({}, ...schemas.map((text) => describeMessages(protobufjs().parse(text, { keepCase: true }).root))) as MessageDescriptors;
}
