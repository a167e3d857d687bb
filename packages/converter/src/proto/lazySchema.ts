/**
 * A schema the converter writes (aapt.pb, android.bundle): encoded from its descriptors kept as
 * source (descriptors.ts), parsed by protobufjs only when its types are first asked for
 * (decoding, validating a bundle, AABIFY_CHECK_ENCODE): ~7 ms off every conversion's start.
 */
import type protobuf from 'protobufjs';
import { MESSAGE_DESCRIPTORS } from './descriptors.js';
import type { MessageRef } from './fastEncode.js';
import { protobufjs } from './protobufjs.js';

export interface LazySchema<Name extends string> {
  /** The parsed schema (parsed on the first call), snake_case names kept. */
  root(): protobuf.Root;
  /** protobufjs's types by short name, each a getter that parses the schema on first use. */
  readonly types: { readonly [name in Name]: protobuf.Type };
  /** What the fast encoder takes for a message, without parsing the schema. */
  ref(name: Name): MessageRef;
}

export function lazySchema<Name extends string>(text: string, packageName: string, names: readonly Name[]): LazySchema<Name> {
  let root: protobuf.Root | undefined;
  const parsed = (): protobuf.Root => (root ??= protobufjs().parse(text, { keepCase: true }).root);
  const lookup = (fullName: string): protobuf.Type => parsed().lookupType(fullName);
  const types = {} as { [name in Name]: protobuf.Type };
  const known = new Map<Name, protobuf.Type>();
  for (const name of names) {
    Object.defineProperty(types, name, {
      enumerable: true,
      get: () => {
        let t = known.get(name);
        if (!t) {
          t = lookup(`${packageName}.${name}`);
          known.set(name, t);
        }
        return t;
      },
    });
  }
  const refs = new Map<Name, MessageRef>();
  return {
    root: parsed,
    types,
    ref(name) {
      let r = refs.get(name);
      if (!r) {
        r = { name: `${packageName}.${name}`, descriptors: MESSAGE_DESCRIPTORS, lookup };
        refs.set(name, r);
      }
      return r;
    },
  };
}
