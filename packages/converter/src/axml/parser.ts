import { ConverterError, type ConverterErrorCode } from '../errors.js';
import { ByteReader, hex } from '../arsc/bytes.js';
import { type ChunkHeader, ChunkType, readChunkHeader } from '../arsc/chunk.js';
import { type ResValue } from '../arsc/model.js';
import { allStrings, parseStringPool, type StringPool } from '../arsc/stringPool.js';
import {
  NO_STRING,
  type XmlAttribute,
  type XmlDocument,
  type XmlElement,
  type XmlNamespaceDecl,
  type XmlNode,
  type XmlStyles,
} from './model.js';

/** Deeper element nesting than this is refused (NESTING_TOO_DEEP). */
export const MAX_XML_DEPTH = 256;
/**
 * Larger binary XML files are refused (INFLATED_TOO_LARGE): real manifests and resources are
 * well under 1 MB, and a parsed node costs ~10x its bytes in memory.
 */
export const MAX_XML_BYTES = 32 * 1024 * 1024;
export const XML_HEADER_SIZE = 8;
export const XML_NODE_HEADER_SIZE = 16;
const ATTRIBUTE_SIZE = 20;
const NONE = 0xffffffff;

export interface ParseXmlOptions {
  /** Error code for corrupt input (BAD_MANIFEST for the manifest); BAD_BINARY_XML by default. */
  readonly errorCode?: ConverterErrorCode;
}

/** Header sniff: an RES_XML_TYPE chunk with the 8-byte ResXMLTree_header. */
export function isBinaryXml(buf: Uint8Array): boolean {
  return buf.byteLength >= 8 && buf[0] === 0x03 && buf[1] === 0x00 && buf[2] === 0x08 && buf[3] === 0x00;
}

interface MutableElement extends Omit<XmlElement, 'children'> {
  readonly children: XmlNode[];
}

/**
 * Parses binary XML the way ResXMLTree + aapt2's xml::Inflate walk it: the first string pool
 * and the resource map before the first node; then nodes, skipping chunk types it does not
 * know. Any corruption throws ConverterError with the chunk and byte offset.
 */
export function parseBinaryXml(buf: Uint8Array, options: ParseXmlOptions = {}): XmlDocument {
  if (buf.byteLength > MAX_XML_BYTES) throw new ConverterError('INFLATED_TOO_LARGE', `binary XML: ${buf.byteLength} bytes (max ${MAX_XML_BYTES})`);
  const r: ByteReader = new ByteReader(buf, options.errorCode ?? 'BAD_BINARY_XML');
  const top = readChunkHeader(r, 0, buf.byteLength, 'binary XML');
  if (top.type !== ChunkType.XML) r.fail(`binary XML: first chunk type ${hex(top.type, 4)} is not RES_XML_TYPE`);
  const end = top.offset + top.size;
  let pool: StringPool | undefined;
  let resourceMap: number[] = [];
  let strings: string[] = [];
  // Through the pool, so every reference counts against its served budget (stringPool.ts).
  const str = (i: number): string => (i === NONE || !pool ? '' : pool.get(i));
  const optStr = (i: number): string | undefined => (i === NONE || !pool || i >= pool.count ? undefined : pool.get(i));
  const attrContext: AttrContext = { str, optStr, resourceMap };

  let root: MutableElement | undefined;
  const stack: MutableElement[] = [];
  let pendingNs: XmlNamespaceDecl[] = [];
  let inNodes = false;

  for (let offset = top.offset + top.headerSize; offset < end; ) {
    const h = readChunkHeader(r, offset, end, 'binary XML');
    offset += h.size;
    const isNode = h.type >= ChunkType.XML_START_NAMESPACE && h.type <= ChunkType.XML_LAST_CHUNK;
    if (!inNodes) {
      if (h.type === ChunkType.STRING_POOL) {
        if (!pool) {
          pool = parseStringPool(r, h);
          strings = allStrings(pool);
        }
        continue;
      }
      if (h.type === ChunkType.XML_RESOURCE_MAP) {
        resourceMap = readResourceMap(r, h);
        attrContext.resourceMap = resourceMap;
        continue;
      }
      if (!isNode) continue;
      if (!pool) r.fail(`binary XML: node at offset ${h.offset} before any string pool`);
      inNodes = true;
    }
    if (!isNode) continue; // unknown chunks between nodes are skipped, as ResXMLParser does
    if (h.headerSize < XML_NODE_HEADER_SIZE) {
      r.fail(`binary XML: node type ${hex(h.type, 4)} at offset ${h.offset} has header size ${h.headerSize} < 16`);
    }
    const lineNumber = r.u32(h.offset + 8);
    const comment = optStr(r.u32(h.offset + 12));
    const ext = h.offset + h.headerSize;
    const extLen = h.size - h.headerSize;
    switch (h.type) {
      case ChunkType.XML_START_NAMESPACE: {
        if (extLen < 8) needExt(r, h, extLen, 8);
        const decl: XmlNamespaceDecl = { prefix: str(r.u32(ext)), uri: str(r.u32(ext + 4)), lineNumber };
        if (comment !== undefined) (decl as { comment?: string }).comment = comment;
        pendingNs.push(decl);
        break;
      }
      case ChunkType.XML_END_NAMESPACE:
        if (extLen < 8) needExt(r, h, extLen, 8);
        break;
      case ChunkType.XML_START_ELEMENT: {
        if (extLen < 20) needExt(r, h, extLen, 20);
        const namespaceUri = str(r.u32(ext));
        const name = str(r.u32(ext + 4));
        const el: MutableElement = {
          kind: 'element',
          namespaceUri,
          name,
          lineNumber,
          namespaceDecls: pendingNs,
          attributes: readAttributes(r, h, ext, extLen, attrContext),
          children: [],
          idIndex: r.u16(ext + 14),
          classIndex: r.u16(ext + 16),
          styleIndex: r.u16(ext + 18),
        };
        if (comment !== undefined) (el as { comment?: string }).comment = comment;
        pendingNs = [];
        const parent = stack[stack.length - 1];
        if (parent) parent.children.push(el);
        else root = el; // as aapt2: a second top-level element replaces the first
        if (stack.length >= MAX_XML_DEPTH) {
          throw new ConverterError('NESTING_TOO_DEEP', `binary XML: element at offset ${h.offset} nested deeper than ${MAX_XML_DEPTH}`);
        }
        stack.push(el);
        break;
      }
      case ChunkType.XML_END_ELEMENT:
        if (extLen < 8) needExt(r, h, extLen, 8);
        if (!stack.pop()) r.fail(`binary XML: ${nodeAt(h)} closes an element that was never opened`);
        break;
      case ChunkType.XML_CDATA: {
        if (extLen < 12) needExt(r, h, extLen, 12);
        const parent = stack[stack.length - 1];
        if (!parent) r.fail(`binary XML: text ${nodeAt(h)} outside the root element`);
        const text: XmlNode = { kind: 'text', text: str(r.u32(ext)), lineNumber, typedValue: readResValue(r, ext + 4) };
        if (comment !== undefined) (text as { comment?: string }).comment = comment;
        parent.children.push(text);
        break;
      }
      default:
        break; // other node types: skipped, as ResXMLParser::nextNode does
    }
  }
  if (!pool) r.fail('binary XML: no string pool');
  if (!root) r.fail('binary XML: no root element');
  // Styles are read when a value asks for them (xmlProto), not all up front.
  const styles: XmlStyles = { count: pool.styleCount, get: pool.styleAt };
  return { strings, styles, utf8: pool.utf8, resourceMap, root };
}

/** Where a node is, for error messages (built only when one fails). */
function nodeAt(h: ChunkHeader): string {
  return `node type ${hex(h.type, 4)} at offset ${h.offset}`;
}

function needExt(r: ByteReader, h: ChunkHeader, extLen: number, n: number): never {
  return r.fail(`binary XML: ${nodeAt(h)} has ${extLen} bytes of data, needs ${n}`);
}

function readResourceMap(r: ByteReader, h: ChunkHeader): number[] {
  const count = Math.floor((h.size - h.headerSize) / 4);
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(r.u32(h.offset + h.headerSize + i * 4));
  return out;
}

function readResValue(r: ByteReader, at: number): ResValue {
  return { dataType: r.u8(at + 3), data: r.u32(at + 4) };
}

interface AttrContext {
  str(i: number): string;
  optStr(i: number): string | undefined;
  resourceMap: readonly number[];
}

function readAttributes(r: ByteReader, h: ChunkHeader, ext: number, extLen: number, c: AttrContext): XmlAttribute[] {
  const start = r.u16(ext + 8);
  const size = r.u16(ext + 10);
  const count = r.u16(ext + 12);
  if (count === 0) return [];
  // As ResXMLTree::validateNode: each attribute takes its own `size` bytes (at least a whole
  // ResXMLTree_attribute), and all of them lie inside the node. Without it, a 56-byte node with
  // attributeSize 0 and attributeCount 65535 made 65,535 attributes from the same 20 bytes.
  if (size < ATTRIBUTE_SIZE) r.fail(`binary XML: ${nodeAt(h)}: attributeSize ${size} < ${ATTRIBUTE_SIZE}`);
  if (start + count * size > extLen) {
    r.fail(`binary XML: ${nodeAt(h)}: ${count} attributes of ${size} bytes from ${start} do not fit in ${extLen} bytes`);
  }
  const out: XmlAttribute[] = [];
  for (let i = 0; i < count; i++) {
    const p = ext + start + i * size;
    const nameIndex = r.u32(p + 4);
    const raw = r.u32(p + 8);
    const rawValue = c.optStr(raw);
    const map = c.resourceMap;
    const attr: XmlAttribute = {
      namespaceUri: c.str(r.u32(p)),
      name: c.str(nameIndex),
      nameIndex,
      resourceId: nameIndex < map.length ? map[nameIndex] : 0,
      rawValueIndex: raw === NONE ? NO_STRING : raw,
      typedValue: readResValue(r, p + 12),
    };
    if (rawValue !== undefined) (attr as { rawValue?: string }).rawValue = rawValue;
    out.push(attr);
  }
  return out;
}
