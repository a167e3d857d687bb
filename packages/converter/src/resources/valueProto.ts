import { type ResValue } from '../arsc/model.js';
import { type StringPool } from '../arsc/stringPool.js';
import { DATA_NULL_EMPTY, DATA_NULL_UNDEFINED, DataType } from '../arsc/values.js';
import { type PbItem, type PbPrimitive, type PbReference } from '../proto/aapt.js';

/** aapt.pb.FileReference.Type */
export const FileType = { UNKNOWN: 0, PNG: 1, BINARY_XML: 2, PROTO_XML: 3 } as const;

export interface ConversionWarning {
  readonly code: string;
  readonly message: string;
}

/** What the value conversion needs besides the value itself. */
export interface ValueContext {
  readonly pool: StringPool;
  /** Final FileReference type for a path, given the type aapt2 would infer from its name. */
  fileType(path: string, inferred: number): number;
  warn(w: ConversionWarning): void;
}

/** The FileReference type aapt2 infers from the entry type and the path (ParseBinaryResValue). */
export function inferFileType(typeName: string, path: string): number {
  if (typeName === 'raw') return FileType.UNKNOWN;
  if (path.endsWith('.xml')) return FileType.BINARY_XML;
  if (path.endsWith('.png')) return FileType.PNG;
  return FileType.UNKNOWN;
}

/** Whether a string value of an entry of this type is a file path (a FileReference). */
export function isFilePath(typeName: string, s: string): boolean {
  return typeName !== 'string' && s.startsWith('res/');
}

function float32(bits: number): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, bits >>> 0, true);
  return v.getFloat32(0, true);
}

/**
 * Res_value → aapt.pb.Item, as aapt2's ParseBinaryResValue + ProtoSerialize (docs/aab-format.md
 * "Values"). `typeName` is the resource type of the entry holding the value ("anim" for XML).
 * Values aapt2 would abort on (odd NULL data, unknown data types) are sanitised and reported.
 */
export function resValueToItem(typeName: string, v: ResValue, ctx: ValueContext): PbItem {
  const data = v.data >>> 0;
  if (typeName === 'id' && v.dataType !== DataType.REFERENCE && v.dataType !== DataType.DYNAMIC_REFERENCE) {
    return { id: {} };
  }
  switch (v.dataType) {
    case DataType.STRING: {
      const s = ctx.pool.get(data);
      const spans = ctx.pool.styleAt(data);
      if (spans) {
        return {
          styled_str: {
            ...(s !== '' ? { value: s } : {}),
            span: spans.map((sp) => {
              const span: { tag?: string; first_char?: number; last_char?: number } = {};
              if (sp.name !== '') span.tag = sp.name;
              if (sp.firstChar !== 0) span.first_char = sp.firstChar;
              if (sp.lastChar !== 0) span.last_char = sp.lastChar;
              return span;
            }),
          },
        };
      }
      if (isFilePath(typeName, s)) {
        const type = ctx.fileType(s, inferFileType(typeName, s));
        return { file: { path: s, ...(type !== 0 ? { type } : {}) } };
      }
      return { str: s !== '' ? { value: s } : {} };
    }
    case DataType.REFERENCE:
    case DataType.ATTRIBUTE:
    case DataType.DYNAMIC_REFERENCE:
    case DataType.DYNAMIC_ATTRIBUTE: {
      if (data === 0) return { ref: {} }; // @null
      const ref: PbReference = { id: data };
      if (v.dataType === DataType.ATTRIBUTE || v.dataType === DataType.DYNAMIC_ATTRIBUTE) ref.type = 1;
      if (v.dataType === DataType.DYNAMIC_REFERENCE || v.dataType === DataType.DYNAMIC_ATTRIBUTE) {
        ref.is_dynamic = { value: true };
      }
      return { ref };
    }
    default:
      return { prim: primitive(v, ctx) };
  }
}

function primitive(v: ResValue, ctx: ValueContext): PbPrimitive {
  const data = v.data >>> 0;
  switch (v.dataType) {
    case DataType.NULL:
      if (data === DATA_NULL_EMPTY) return { empty_value: {} };
      if (data !== DATA_NULL_UNDEFINED) {
        ctx.warn({
          code: 'NULL_VALUE_SANITIZED',
          message: `Um valor nulo com dado inesperado (${data}) foi convertido em @null.`,
        });
      }
      return { null_value: {} };
    case DataType.FLOAT:
      return { float_value: float32(data) };
    case DataType.DIMENSION:
      return { dimension_value: data };
    case DataType.FRACTION:
      return { fraction_value: data };
    case DataType.INT_DEC:
      return { int_decimal_value: data | 0 };
    case DataType.INT_HEX:
      return { int_hexadecimal_value: data };
    case DataType.INT_BOOLEAN:
      return { boolean_value: data !== 0 };
    case DataType.INT_COLOR_ARGB8:
      return { color_argb8_value: data };
    case DataType.INT_COLOR_RGB8:
      return { color_rgb8_value: data };
    case DataType.INT_COLOR_ARGB4:
      return { color_argb4_value: data };
    case DataType.INT_COLOR_RGB4:
      return { color_rgb4_value: data };
    default:
      ctx.warn({
        code: 'UNKNOWN_VALUE_TYPE',
        message: `Um valor de tipo desconhecido (0x${v.dataType.toString(16)}) foi mantido como inteiro hexadecimal.`,
      });
      return { int_hexadecimal_value: data };
  }
}
