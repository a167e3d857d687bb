import { type ResMapItem } from '../arsc/model.js';
import { AttrFormat, EntryFlag, MapKey, isInternalId } from '../arsc/values.js';
import { type PbCompoundValue, type PbItem, type PbReference, type PbValue } from '../proto/aapt.js';
import { resValueToItem, type ValueContext } from './valueProto.js';

/** aapt2's Attribute defaults: no ATTR_MIN/ATTR_MAX means the full int32 range. */
export const ATTR_MIN_DEFAULT = -0x80000000;
export const ATTR_MAX_DEFAULT = 0x7fffffff;

const ARITY: Readonly<Record<number, number>> = {
  [MapKey.ATTR_ZERO]: 0,
  [MapKey.ATTR_ONE]: 1,
  [MapKey.ATTR_TWO]: 2,
  [MapKey.ATTR_FEW]: 3,
  [MapKey.ATTR_MANY]: 4,
  [MapKey.ATTR_OTHER]: 5,
};

function refTo(id: number): PbReference {
  return id !== 0 ? { id: id >>> 0 } : {};
}

/**
 * A complex (map) entry → aapt.pb.Value, dispatched on the entry's type name as aapt2's
 * BinaryResourceParser::ParseMapEntry (docs/aab-format.md "Compound values"). Undefined for a type aapt2
 * refuses as "illegal map type".
 */
export function mapEntryToValue(
  typeName: string,
  entryFlags: number,
  parent: number,
  items: readonly ResMapItem[],
  ctx: ValueContext,
): PbValue | undefined {
  const item = (v: ResMapItem): PbItem => resValueToItem(typeName, v.value, ctx);
  let compound: PbCompoundValue;
  switch (typeName) {
    case 'style':
    case 'configVarying': {
      const style: NonNullable<PbCompoundValue['style']> = {};
      if (parent !== 0) style.parent = refTo(parent);
      style.entry = items.filter((m) => !isInternalId(m.name)).map((m) => ({ key: refTo(m.name), item: item(m) }));
      compound = { style };
      break;
    }
    case 'attr':
    case '^attr-private': {
      let format = 0;
      let min = ATTR_MIN_DEFAULT;
      let max = ATTR_MAX_DEFAULT;
      for (const m of items) {
        if (m.name === MapKey.ATTR_TYPE) {
          format = m.value.data >>> 0;
          break;
        }
      }
      const symbols: NonNullable<NonNullable<PbCompoundValue['attr']>['symbol']> = [];
      for (const m of items) {
        if (isInternalId(m.name)) {
          if (m.name === MapKey.ATTR_MIN) min = m.value.data | 0;
          else if (m.name === MapKey.ATTR_MAX) max = m.value.data | 0;
          continue;
        }
        if (format & (AttrFormat.ENUM | AttrFormat.FLAGS)) {
          const value = m.value.data >>> 0;
          symbols.push({
            name: refTo(m.name),
            ...(value !== 0 ? { value } : {}),
            ...(m.value.dataType !== 0 ? { type: m.value.dataType } : {}),
          });
        }
      }
      const attr: NonNullable<PbCompoundValue['attr']> = {};
      if (format !== 0) attr.format_flags = format;
      if (min !== 0) attr.min_int = min;
      if (max !== 0) attr.max_int = max;
      attr.symbol = symbols;
      const value: PbValue = { compound_value: { attr } };
      if (entryFlags & EntryFlag.WEAK) value.weak = true;
      return value;
    }
    case 'array':
      compound = { array: { element: items.map((m) => ({ item: item(m) })) } };
      break;
    case 'plurals': {
      const byArity = new Map<number, PbItem>();
      for (const m of items) {
        const converted = item(m);
        const arity = ARITY[m.name];
        if (arity !== undefined) byArity.set(arity, converted);
      }
      const entry = [...byArity.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([arity, it]) => ({ ...(arity !== 0 ? { arity } : {}), item: it }));
      compound = { plural: { entry } };
      break;
    }
    case 'id':
      return { item: { id: {} } };
    default:
      return undefined;
  }
  return { compound_value: compound };
}
