import { type StringPool } from '../arsc/stringPool.js';
import { DataType } from '../arsc/values.js';
import { NO_STRING, type XmlAttribute, type XmlDocument, type XmlElement, type XmlNode } from '../axml/model.js';
import {
  encodeAapt,
  type PbSourcePosition,
  type PbXmlAttribute,
  type PbXmlElement,
  type PbXmlNode,
} from '../proto/aapt.js';
import { Writer } from '../proto/protoWriter.js';
import { resValueToItem, writeResValueItem, type ConversionWarning, type ValueContext } from './valueProto.js';

export interface XmlProtoOptions {
  readonly warnings?: ConversionWarning[];
}

function position(line: number): PbSourcePosition {
  return line !== 0 ? { line_number: line >>> 0 } : {};
}

function docPool(doc: XmlDocument): StringPool {
  return {
    count: doc.strings.length,
    styleCount: doc.styles.count,
    utf8: doc.utf8,
    sorted: false,
    get: (i) => doc.strings[i] ?? '',
    styleAt: (i) => doc.styles.get(i),
  };
}

/** Whether aapt2 keeps a compiled value: not a string, or a string other than the raw value. */
export function hasCompiledValue(a: XmlAttribute): boolean {
  return a.typedValue.dataType !== DataType.STRING || a.rawValueIndex === NO_STRING || a.rawValueIndex !== a.typedValue.data >>> 0;
}

/**
 * XmlDocument → aapt.pb.XmlNode, as aapt2's xml::Inflate (binary) + SerializeXmlToPb: element
 * and text positions, namespace declarations on the element that follows them, raw values,
 * resource ids from the resource map, compiled items parsed as for an "anim" resource.
 */
export function xmlToProtoNode(doc: XmlDocument, options: XmlProtoOptions = {}): PbXmlNode {
  const ctx: ValueContext = {
    pool: docPool(doc),
    fileType: (_path, inferred) => inferred,
    warn: (w) => {
      options.warnings?.push(w);
    },
  };
  const attribute = (a: XmlAttribute): PbXmlAttribute => {
    const out: PbXmlAttribute = {};
    if (a.namespaceUri !== '') out.namespace_uri = a.namespaceUri;
    if (a.name !== '') out.name = a.name;
    if (a.rawValue !== undefined && a.rawValue !== '') out.value = a.rawValue;
    if (a.resourceId !== 0) out.resource_id = a.resourceId >>> 0;
    if (hasCompiledValue(a)) {
      out.compiled_item = resValueToItem('anim', a.typedValue, ctx);
      out.source = {}; // aapt2 sets the value's line, which a binary file does not have
    } else if (a.rawValue !== undefined && a.rawValue.includes('\\')) {
      // aapt2's flattener reads an uncompiled value as source text and resolves its backslash
      // escapes (".*\\.zip" would come back as ".*.zip"); the string, compiled, is kept as is.
      out.compiled_item = { str: { value: a.rawValue } };
    }
    return out;
  };
  const node = (n: XmlNode): PbXmlNode => {
    if (n.kind === 'text') return { text: n.text, source: position(n.lineNumber) };
    return { element: element(n), source: position(n.lineNumber) };
  };
  const element = (e: XmlElement): PbXmlElement => {
    const out: PbXmlElement = {};
    out.namespace_declaration = e.namespaceDecls.map((d) => ({
      ...(d.prefix !== '' ? { prefix: d.prefix } : {}),
      ...(d.uri !== '' ? { uri: d.uri } : {}),
      source: position(d.lineNumber),
    }));
    if (e.namespaceUri !== '') out.namespace_uri = e.namespaceUri;
    if (e.name !== '') out.name = e.name;
    out.attribute = e.attributes.map(attribute);
    out.child = e.children.map(node);
    return out;
  };
  return node(doc.root);
}

/**
 * aapt.pb.XmlNode bytes for a binary XML document, as `aapt2 convert` emits them: the bytes
 * `encodeAapt('XmlNode', xmlToProtoNode(doc))` gives, written straight from the document (no
 * message objects per node and attribute, the garbage of a conversion's hundreds of res/ files).
 * A document nested deeper than DIRECT_DEPTH goes through the message and the encoder, whose
 * depth limit then fails it as before.
 */
export function xmlToProto(doc: XmlDocument, options: XmlProtoOptions = {}): Uint8Array {
  const warnings: ConversionWarning[] = [];
  const direct = new DirectXmlWriter(doc, warnings);
  scratch.pos = 0;
  try {
    direct.node(doc.root, 0);
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    return encodeAapt('XmlNode', xmlToProtoNode(doc, options));
  }
  options.warnings?.push(...warnings);
  return scratch.copyOut();
}

/**
 * Elements this deep (the root is 0) are left to the encoder: below it, no message of the tree
 * is deeper than the encoder's recursion limit (100; an element at depth d is an XmlElement at
 * 2d + 1, its attributes' items and their parts at most 2d + 5).
 */
const DIRECT_DEPTH = 48;
const TOO_DEEP = new Error('too deep for the direct writer');
/** One buffer for every document (its bytes are copied out). */
const scratch = new Writer();

/**
 * Writes what xmlToProtoNode builds, field by field in field-number order, with the encoder's
 * rules (docs/aab-format.md "Protobuf encoding rules"): a string field only when it is not
 * empty, except a text node's text; source positions always (empty without a line); compiled
 * items as writeResValueItem writes them, in document order (the same pool reads, the same errors).
 */
class DirectXmlWriter {
  private readonly ctx: ValueContext;

  constructor(doc: XmlDocument, warnings: ConversionWarning[]) {
    this.ctx = { pool: docPool(doc), fileType: (_path, inferred) => inferred, warn: (w) => warnings.push(w) };
  }

  /** An XmlNode: its element or text (field 1 or 2), then its source (3). */
  node(n: XmlNode, depth: number): void {
    const w = scratch;
    if (n.kind === 'text') {
      w.uint32(0x12);
      w.string(n.text);
    } else {
      if (depth >= DIRECT_DEPTH) throw TOO_DEEP;
      w.uint32(0x0a);
      const at = w.fork();
      this.element(n, depth);
      w.ldelim(at);
    }
    w.uint32(0x1a);
    writePosition(w, n.lineNumber);
  }

  private element(e: XmlElement, depth: number): void {
    const w = scratch;
    // Indexed loops: this runs mostly before V8 optimises it, where `for...of` allocates per step.
    const decls = e.namespaceDecls;
    for (let i = 0; i < decls.length; i++) {
      const d = decls[i]!;
      w.uint32(0x0a);
      const at = w.fork();
      w.stringField(0x0a, d.prefix);
      w.stringField(0x12, d.uri);
      w.uint32(0x1a);
      writePosition(w, d.lineNumber);
      w.ldelim(at);
    }
    w.stringField(0x12, e.namespaceUri);
    w.stringField(0x1a, e.name);
    const attributes = e.attributes;
    for (let i = 0; i < attributes.length; i++) {
      w.uint32(0x22);
      const at = w.fork();
      this.attribute(attributes[i]!);
      w.ldelim(at);
    }
    const children = e.children;
    for (let i = 0; i < children.length; i++) {
      w.uint32(0x2a);
      const at = w.fork();
      this.node(children[i]!, depth + 1);
      w.ldelim(at);
    }
  }

  private attribute(a: XmlAttribute): void {
    const w = scratch;
    w.stringField(0x0a, a.namespaceUri);
    w.stringField(0x12, a.name);
    const raw = a.rawValue;
    if (raw !== undefined) w.stringField(0x1a, raw);
    const compiled = hasCompiledValue(a);
    if (compiled) {
      w.uint32(0x22);
      w.uint32(0); // an empty SourcePosition (see xmlToProtoNode)
    }
    if (a.resourceId !== 0) {
      w.uint32(0x28);
      w.uint32(a.resourceId >>> 0);
    }
    if (compiled) {
      w.uint32(0x32);
      const at = w.fork();
      writeResValueItem(w, 'anim', a.typedValue, this.ctx);
      w.ldelim(at);
    } else if (raw !== undefined && raw.includes('\\')) {
      // Item { str: String { value } }
      w.uint32(0x32);
      const at = w.fork();
      w.uint32(0x12);
      const strAt = w.fork();
      w.uint32(0x0a);
      w.string(raw);
      w.ldelim(strAt);
      w.ldelim(at);
    }
  }
}

/** A SourcePosition as a length-delimited field whose tag is written: the line when there is one. */
function writePosition(w: Writer, line: number): void {
  if (line === 0) {
    w.uint32(0);
    return;
  }
  const at = w.fork();
  w.uint32(0x08);
  w.uint32(line >>> 0);
  w.ldelim(at);
}
