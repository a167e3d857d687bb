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
import { resValueToItem, type ConversionWarning, type ValueContext } from './valueProto.js';

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

/** aapt.pb.XmlNode bytes for a binary XML document, as `aapt2 convert` emits them. */
export function xmlToProto(doc: XmlDocument, options: XmlProtoOptions = {}): Uint8Array {
  return encodeAapt('XmlNode', xmlToProtoNode(doc, options));
}
