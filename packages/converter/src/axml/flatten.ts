/**
 * aapt.pb.XmlNode → binary XML (ResXMLTree), as `aapt2 convert --output-format binary` writes
 * it for bundletool (docs/apks.md): namespace nodes around their element, the tools namespace
 * and its attributes left out, attributes sorted (those with a resource id first, by id; the
 * rest by namespace and name), whitespace-only text dropped, and a string pool
 * whose first strings are the attribute names with resource ids, in id order, matched by the
 * resource map.
 */
import { ByteWriter } from '../arsc/byteWriter.js';
import { ChunkType } from '../arsc/chunk.js';
import { LOW_PRIORITY, StringPoolBuilder, type PoolRef } from '../arsc/poolWriter.js';
import { encodeItem, PoolPatches, writeResValue } from '../arsc/valueWriter.js';
import { ConverterError } from '../errors.js';
import type { PbXmlAttribute, PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import { compactText, resolveEscapes } from './escapes.js';
import { MAX_XML_DEPTH } from './parser.js';

export const TOOLS_NS = 'http://schemas.android.com/tools';
const ID_ATTR = 0x010100d0;
const NO_INDEX = 0xffffffff;

export interface FlattenXmlOptions {
  /** UTF-16 string pool (the manifest), else UTF-8 (res/ files). */
  readonly utf16?: boolean;
  /** Names the file in errors. */
  readonly path?: string;
}

/** aapt2's cmp_xml_attribute_by_id. */
function compareAttributes(a: PbXmlAttribute, b: PbXmlAttribute): number {
  const ia = a.resource_id ?? 0;
  const ib = b.resource_id ?? 0;
  if (ia !== 0 && ib !== 0) return ia === ib ? 0 : ia >>> 0 < ib >>> 0 ? -1 : 1;
  if (ia !== 0) return -1;
  if (ib !== 0) return 1;
  const na = a.namespace_uri ?? '';
  const nb = b.namespace_uri ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  const ma = a.name ?? '';
  const mb = b.name ?? '';
  return ma === mb ? 0 : ma < mb ? -1 : 1;
}

class XmlWriter {
  readonly pool: StringPoolBuilder;
  readonly nodes = new ByteWriter(4096);
  readonly patches = new PoolPatches();

  constructor(
    utf16: boolean,
    private readonly path: string,
  ) {
    this.pool = new StringPoolBuilder(!utf16);
  }

  /** A string reference at the current position (0xFFFFFFFF for an empty one where aapt2 writes null). */
  str(s: string, nullWhenEmpty = false, priority = LOW_PRIORITY): void {
    if (s === '' && nullWhenEmpty) {
      this.nodes.u32(NO_INDEX);
      return;
    }
    this.ref(this.pool.ref(s, priority));
  }

  ref(r: PoolRef): void {
    this.patches.add(this.nodes.length, r);
    this.nodes.u32(0);
  }

  nodeHeader(type: number, headerSize: number, line: number): number {
    const start = this.nodes.startChunk(type, headerSize);
    this.nodes.u32(line >>> 0).u32(NO_INDEX);
    return start;
  }

  namespace(type: number, prefix: string, uri: string, line: number): void {
    const start = this.nodeHeader(type, 16, line);
    this.str(prefix);
    this.str(uri);
    this.nodes.endChunk(start);
  }

  element(node: PbXmlNode, depth: number): void {
    const el = node.element as PbXmlElement;
    if (depth > MAX_XML_DEPTH) throw new ConverterError('NESTING_TOO_DEEP', `${this.path}: elementos aninhados além de ${MAX_XML_DEPTH}`);
    const line = node.source?.line_number ?? 0;
    const ns = el.namespace_uri ?? '';
    const name = el.name ?? '';
    const declared = el.namespace_declaration ?? [];
    const decls = declared.length === 0 ? declared : declared.filter((d) => (d.uri ?? '') !== TOOLS_NS);
    for (const d of decls) this.namespace(ChunkType.XML_START_NAMESPACE, d.prefix ?? '', d.uri ?? '', d.source?.line_number ?? 0);

    const attrs = (el.attribute ?? []).filter((a) => (a.namespace_uri ?? '') !== TOOLS_NS);
    if (attrs.length > 1) attrs.sort(compareAttributes);
    const start = this.nodeHeader(ChunkType.XML_START_ELEMENT, 16, line);
    this.str(ns, true);
    this.str(name, true);
    let idIndex = 0;
    let classIndex = 0;
    let styleIndex = 0;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      if ((a.resource_id ?? 0) === ID_ATTR) idIndex = i + 1;
      else if ((a.namespace_uri ?? '') === '') {
        if (a.name === 'class') classIndex = i + 1;
        else if (a.name === 'style') styleIndex = i + 1;
      }
    }
    this.nodes.u16(20).u16(20).u16(attrs.length).u16(idIndex).u16(classIndex).u16(styleIndex);
    for (const a of attrs) this.attribute(a);
    this.nodes.endChunk(start);

    for (const c of el.child ?? []) {
      if (c.element) this.element(c, depth + 1);
      else if (c.text !== undefined) this.text(c);
    }

    const end = this.nodeHeader(ChunkType.XML_END_ELEMENT, 16, line);
    this.str(ns, true);
    this.str(name);
    this.nodes.endChunk(end);
    for (let i = decls.length - 1; i >= 0; i--) {
      const d = decls[i];
      this.namespace(ChunkType.XML_END_NAMESPACE, d.prefix ?? '', d.uri ?? '', d.source?.line_number ?? 0);
    }
  }

  /**
   * Raw values are not kept as written (bundletool's aapt2 converts without keep_raw_values): a
   * string value is both the typed value and the raw one, escapes resolved; any other compiled
   * value has no raw string.
   */
  attribute(a: PbXmlAttribute): void {
    const id = (a.resource_id ?? 0) >>> 0;
    this.str(a.namespace_uri ?? '', true);
    // Names with a resource id are their own strings per id: the resource map pairs them up.
    this.ref(this.pool.ref(a.name ?? '', id !== 0 ? id : LOW_PRIORITY));
    const item = a.compiled_item;
    const text = item ? (item.str ? (item.str.value ?? '') : item.styled_str ? (item.styled_str.value ?? '') : undefined) : resolveEscapes(a.value ?? '');
    if (text !== undefined) {
      this.str(text);
      this.nodes.u16(8).u8(0).u8(0x03);
      this.str(text);
      return;
    }
    this.nodes.u32(NO_INDEX);
    writeResValue(this.nodes, encodeItem(item!, this.pool, this.path), this.patches);
  }

  text(node: PbXmlNode): void {
    const text = compactText(node.text ?? '');
    if (text === undefined) return;
    const start = this.nodeHeader(ChunkType.XML_CDATA, 16, node.source?.line_number ?? 0);
    this.str(text);
    this.nodes.zeros(8);
    this.nodes.endChunk(start);
  }
}

/** Binary XML bytes for a proto XML document (its root must be an element). */
export function flattenXml(root: PbXmlNode, options: FlattenXmlOptions = {}): Uint8Array {
  const path = options.path ?? 'XML';
  if (!root.element) throw new ConverterError('INVALID_AAB', `${path}: o XML não tem elemento raiz`);
  const w = new XmlWriter(options.utf16 === true, path);
  w.element(root, 0);
  const strings = w.pool.finalize();
  w.patches.apply(w.nodes);

  const out = new ByteWriter(w.nodes.length + strings.length * 24 + 256);
  const xml = out.startChunk(ChunkType.XML, 8);
  w.pool.write(out);
  const map = out.startChunk(ChunkType.XML_RESOURCE_MAP, 8);
  for (const s of strings) {
    if (s.priority === LOW_PRIORITY || !validResourceId(s.priority)) break;
    out.u32(s.priority);
  }
  out.endChunk(map);
  out.bytes(w.nodes.written());
  out.endChunk(xml);
  return out.finish();
}

/** ResourceId::is_valid: a package and a type id. */
function validResourceId(id: number): boolean {
  return (id & 0xff000000) !== 0 && (id & 0x00ff0000) !== 0;
}
