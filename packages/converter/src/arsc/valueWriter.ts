/**
 * aapt.pb.Item → Res_value, as aapt2 deserializes an item from proto and flattens it into a
 * binary table or binary XML: references keep their id (a missing id is 0, "@null"), primitives
 * their data, and every string kind (String, RawString, StyledString, FileReference) becomes an
 * index into the pool being written.
 */
import { ConverterError } from '../errors.js';
import type { PbItem } from '../proto/aapt.js';
import type { ByteWriter } from './byteWriter.js';
import type { PoolRef, StringPoolBuilder } from './poolWriter.js';
import { DATA_NULL_EMPTY, DATA_NULL_UNDEFINED, DataType } from './values.js';

/** A Res_value to write; `ref` (a pool string) supplies `data` once the pool is laid out. */
export interface EncodedValue {
  readonly dataType: number;
  readonly data: number;
  readonly ref?: PoolRef;
}

/**
 * Where pool indices must be written once the pool is final: positions and references side by
 * side (an object per reference was much of a large table's or XML file's garbage).
 */
export class PoolPatches {
  private readonly at: number[] = [];
  private readonly refs: PoolRef[] = [];

  add(at: number, ref: PoolRef): void {
    this.at.push(at);
    this.refs.push(ref);
  }

  /** Writes every recorded index into `out`, each position shifted by `base` (the pool must be finalized). */
  apply(out: ByteWriter, base = 0): void {
    for (let i = 0; i < this.at.length; i++) out.setU32(base + this.at[i], this.refs[i].index);
  }
}

const floatBits = (f: number): number => {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, f, true);
  return v.getUint32(0, true);
};

/** Encodes one item; strings are added to `pool` (styled ones with their spans). */
export function encodeItem(item: PbItem, pool: StringPoolBuilder, what: string): EncodedValue {
  if (item.ref) {
    const r = item.ref;
    const id = (r.id ?? 0) >>> 0;
    const dynamic = id !== 0 && r.is_dynamic?.value === true;
    const attribute = r.type === 1;
    const dataType = attribute ? (dynamic ? DataType.DYNAMIC_ATTRIBUTE : DataType.ATTRIBUTE) : dynamic ? DataType.DYNAMIC_REFERENCE : DataType.REFERENCE;
    return { dataType, data: id };
  }
  if (item.str) return { dataType: DataType.STRING, data: 0, ref: pool.ref(item.str.value ?? '') };
  if (item.raw_str) return { dataType: DataType.STRING, data: 0, ref: pool.ref(item.raw_str.value ?? '') };
  if (item.styled_str) {
    const spans = (item.styled_str.span ?? []).map((s) => ({ name: s.tag ?? '', firstChar: s.first_char ?? 0, lastChar: s.last_char ?? 0 }));
    const value = item.styled_str.value ?? '';
    return { dataType: DataType.STRING, data: 0, ref: spans.length > 0 ? pool.styledRef(value, spans) : pool.ref(value) };
  }
  if (item.file) return { dataType: DataType.STRING, data: 0, ref: pool.ref(item.file.path ?? '') };
  if (item.id) return { dataType: DataType.INT_BOOLEAN, data: 0 };
  const p = item.prim;
  if (p) {
    if (p.null_value) return { dataType: DataType.NULL, data: DATA_NULL_UNDEFINED };
    if (p.empty_value) return { dataType: DataType.NULL, data: DATA_NULL_EMPTY };
    if (p.float_value !== undefined) return { dataType: DataType.FLOAT, data: floatBits(p.float_value) };
    if (p.dimension_value !== undefined) return { dataType: DataType.DIMENSION, data: p.dimension_value >>> 0 };
    if (p.fraction_value !== undefined) return { dataType: DataType.FRACTION, data: p.fraction_value >>> 0 };
    if (p.int_decimal_value !== undefined) return { dataType: DataType.INT_DEC, data: p.int_decimal_value >>> 0 };
    if (p.int_hexadecimal_value !== undefined) return { dataType: DataType.INT_HEX, data: p.int_hexadecimal_value >>> 0 };
    if (p.boolean_value !== undefined) return { dataType: DataType.INT_BOOLEAN, data: p.boolean_value ? 0xffffffff : 0 };
    if (p.color_argb8_value !== undefined) return { dataType: DataType.INT_COLOR_ARGB8, data: p.color_argb8_value >>> 0 };
    if (p.color_rgb8_value !== undefined) return { dataType: DataType.INT_COLOR_RGB8, data: p.color_rgb8_value >>> 0 };
    if (p.color_argb4_value !== undefined) return { dataType: DataType.INT_COLOR_ARGB4, data: p.color_argb4_value >>> 0 };
    if (p.color_rgb4_value !== undefined) return { dataType: DataType.INT_COLOR_RGB4, data: p.color_rgb4_value >>> 0 };
  }
  // aapt2 aborts on an item with no value set ("unknown item"): bundletool fails with it.
  throw new ConverterError('INVALID_AAB', `${what}: item sem valor`);
}

/** Writes a Res_value (size 8); a pool string's index is patched in later. */
export function writeResValue(out: ByteWriter, v: EncodedValue, patches: PoolPatches): void {
  out.u16(8).u8(0).u8(v.dataType);
  if (v.ref) patches.add(out.length, v.ref);
  out.u32(v.data);
}
