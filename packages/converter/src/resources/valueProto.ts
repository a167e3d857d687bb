import { type ResValue } from '../arsc/model.js';
import { type StringPool } from '../arsc/stringPool.js';
import { DATA_NULL_EMPTY, DATA_NULL_UNDEFINED, DataType } from '../arsc/values.js';
import { type PbItem, type PbPrimitive, type PbReference } from '../proto/aapt.js';
import { type Writer } from '../proto/protoWriter.js';

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

/**
 * The fields of the aapt.pb.Item `resValueToItem(typeName, v, ctx)` makes, written as the encoder
 * writes them (the same bytes, pool reads and warnings, in the same order) without making it:
 * res/ XML files are written straight to bytes (xmlProto.ts), and their compiled attributes are
 * most of their values. Field numbers from aapt.pb: Item ref 1, str 2, styled_str 4, file 5,
 * id 6, prim 7; Primitive null 1, empty 2, float 3, int_decimal 6, int_hexadecimal 7, boolean 8,
 * colors 9–12, dimension 13, fraction 14. Returns the file reference written, when the item is one.
 */
export function writeResValueItem(w: Writer, typeName: string, v: ResValue, ctx: ValueContext): WrittenFile | undefined {
  const data = v.data >>> 0;
  if (typeName === 'id' && v.dataType !== DataType.REFERENCE && v.dataType !== DataType.DYNAMIC_REFERENCE) {
    emptyField(w, 0x32);
    return undefined;
  }
  switch (v.dataType) {
    case DataType.STRING: {
      const s = ctx.pool.get(data);
      const spans = ctx.pool.styleAt(data);
      if (spans) {
        w.uint32(0x22);
        const at = w.fork();
        w.stringField(0x0a, s);
        for (let i = 0; i < spans.length; i++) {
          const sp = spans[i]!;
          w.uint32(0x12);
          const spanAt = w.fork();
          w.stringField(0x0a, sp.name);
          if (sp.firstChar !== 0) uint32Field(w, 0x10, sp.firstChar);
          if (sp.lastChar !== 0) uint32Field(w, 0x18, sp.lastChar);
          w.ldelim(spanAt);
        }
        w.ldelim(at);
        return undefined;
      }
      if (isFilePath(typeName, s)) {
        const type = ctx.fileType(s, inferFileType(typeName, s));
        w.uint32(0x2a);
        const at = w.fork();
        w.uint32(0x0a); // a path: written as it is
        w.string(s);
        if (type !== 0) {
          w.uint32(0x10);
          w.int32(type);
        }
        w.ldelim(at);
        return { path: s, type };
      }
      w.uint32(0x12);
      const at = w.fork();
      w.stringField(0x0a, s);
      w.ldelim(at);
      return undefined;
    }
    case DataType.REFERENCE:
    case DataType.ATTRIBUTE:
    case DataType.DYNAMIC_REFERENCE:
    case DataType.DYNAMIC_ATTRIBUTE: {
      if (data === 0) {
        emptyField(w, 0x0a); // @null
        return undefined;
      }
      w.uint32(0x0a);
      const at = w.fork();
      if (v.dataType === DataType.ATTRIBUTE || v.dataType === DataType.DYNAMIC_ATTRIBUTE) uint32Field(w, 0x08, 1);
      uint32Field(w, 0x10, data);
      if (v.dataType === DataType.DYNAMIC_REFERENCE || v.dataType === DataType.DYNAMIC_ATTRIBUTE) {
        w.uint32(0x2a);
        const dynamicAt = w.fork();
        uint32Field(w, 0x08, 1);
        w.ldelim(dynamicAt);
      }
      w.ldelim(at);
      return undefined;
    }
    default: {
      w.uint32(0x3a);
      const at = w.fork();
      writePrimitive(w, v, ctx);
      w.ldelim(at);
      return undefined;
    }
  }
}

/** The FileReference an item written by writeResValueItem is, when it is one (the validators read it). */
export interface WrittenFile {
  readonly path: string;
  readonly type: number;
}

function writePrimitive(w: Writer, v: ResValue, ctx: ValueContext): void {
  const data = v.data >>> 0;
  switch (v.dataType) {
    case DataType.NULL:
      if (data === DATA_NULL_EMPTY) return emptyField(w, 0x12);
      if (data !== DATA_NULL_UNDEFINED) {
        ctx.warn({
          code: 'NULL_VALUE_SANITIZED',
          message: `Um valor nulo com dado inesperado (${data}) foi convertido em @null.`,
        });
      }
      return emptyField(w, 0x0a);
    case DataType.FLOAT:
      w.uint32(0x1d);
      return w.float(float32(data));
    case DataType.DIMENSION:
      return uint32Field(w, 0x68, data);
    case DataType.FRACTION:
      return uint32Field(w, 0x70, data);
    case DataType.INT_DEC:
      w.uint32(0x30);
      return w.int32(data | 0);
    case DataType.INT_HEX:
      return uint32Field(w, 0x38, data);
    case DataType.INT_BOOLEAN:
      return uint32Field(w, 0x40, data !== 0 ? 1 : 0);
    case DataType.INT_COLOR_ARGB8:
      return uint32Field(w, 0x48, data);
    case DataType.INT_COLOR_RGB8:
      return uint32Field(w, 0x50, data);
    case DataType.INT_COLOR_ARGB4:
      return uint32Field(w, 0x58, data);
    case DataType.INT_COLOR_RGB4:
      return uint32Field(w, 0x60, data);
    default:
      ctx.warn({
        code: 'UNKNOWN_VALUE_TYPE',
        message: `Um valor de tipo desconhecido (0x${v.dataType.toString(16)}) foi mantido como inteiro hexadecimal.`,
      });
      return uint32Field(w, 0x38, data);
  }
}

/** A field holding an empty message (its tag and a zero length). */
function emptyField(w: Writer, tag: number): void {
  w.uint32(tag);
  w.uint32(0);
}

function uint32Field(w: Writer, tag: number, value: number): void {
  w.uint32(tag);
  w.uint32(value);
}
