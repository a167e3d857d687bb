import { type ResValue } from '../arsc/model.js';
import { type StyleSpan } from '../arsc/stringPool.js';

/** Marks "no string" in binary XML string references. */
export const NO_STRING = -1;

export interface XmlNamespaceDecl {
  readonly prefix: string;
  readonly uri: string;
  readonly lineNumber: number;
  /** Comment string of the START_NAMESPACE node, when it has one. */
  readonly comment?: string;
}

export interface XmlAttribute {
  readonly namespaceUri: string;
  readonly name: string;
  /** Index of the name in the document's string pool (the resource map is indexed by it). */
  readonly nameIndex: number;
  /** Resource id of the attribute name from the resource map, 0 when there is none. */
  readonly resourceId: number;
  /** The raw (source) value string, undefined when the file has none. */
  readonly rawValue?: string;
  /** Pool index of the raw value, NO_STRING when there is none. */
  readonly rawValueIndex: number;
  readonly typedValue: ResValue;
}

export interface XmlElement {
  readonly kind: 'element';
  readonly namespaceUri: string;
  readonly name: string;
  readonly lineNumber: number;
  readonly comment?: string;
  /** Namespaces declared (START_NAMESPACE) just before this element. */
  readonly namespaceDecls: readonly XmlNamespaceDecl[];
  readonly attributes: readonly XmlAttribute[];
  readonly children: readonly XmlNode[];
  /** 1-based indices of the id/class/style attributes, 0 when absent. */
  readonly idIndex: number;
  readonly classIndex: number;
  readonly styleIndex: number;
}

export interface XmlText {
  readonly kind: 'text';
  readonly text: string;
  readonly lineNumber: number;
  readonly comment?: string;
  readonly typedValue: ResValue;
}

export type XmlNode = XmlElement | XmlText;

/**
 * The styles of a file's string pool, read when asked (once per offset, bounded by the pool's
 * bytes: stringPool.ts): a crafted pool declaring millions of styles costs nothing up front.
 */
export interface XmlStyles {
  /** How many styles the pool declares. */
  readonly count: number;
  /** The spans of string `i`, undefined when it has none. */
  get(i: number): readonly StyleSpan[] | undefined;
}

/** A parsed binary XML file (ResXMLTree). */
export interface XmlDocument {
  /** Every string of the file's pool, decoded. */
  readonly strings: readonly string[];
  /** Styles (spans) by string index, read from the pool when asked. */
  readonly styles: XmlStyles;
  readonly utf8: boolean;
  /** Resource id by string index, for the first resourceMap.length strings. */
  readonly resourceMap: readonly number[];
  readonly root: XmlElement;
}
