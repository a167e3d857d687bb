/**
 * Reading and editing a proto manifest (aapt.pb.XmlNode) the way bundletool's ManifestEditor
 * does when it builds APKs: attributes are found by resource id, new attributes are made as its
 * XmlProtoAttributeBuilder makes them (a string keeps its raw value and a compiled string, a
 * reference or a boolean only its compiled item), new elements have no source line.
 */
import { ANDROID_NS, ATTR } from '../bundle/layout.js';
import type { PbXmlAttribute, PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import { apiLevelForCodename } from '../resources/sdkCodenames.js';
import { attrById, attrByName, booleanValue, children, decimalValue, stringValue } from '../validate/xml.js';

export const ManifestAttr = {
  ...ATTR,
  value: 0x01010024,
  resource: 0x01010025,
  versionName: 0x0101021c,
  isFeatureSplit: 0x0101055b,
  splitTypes: 0x0101064f,
  requiredSplitTypes: 0x0101064e,
  localeConfig: 0x01df000e,
} as const;

export function cloneManifest(node: PbXmlNode): PbXmlNode {
  return structuredClone(node);
}

export function manifestElement(node: PbXmlNode): PbXmlElement {
  return node.element as PbXmlElement;
}

export function packageName(node: PbXmlNode): string {
  return stringValue(attrByName(node.element, 'package')) ?? '';
}

export function versionCode(node: PbXmlNode): number | undefined {
  return decimalValue(attrById(node.element, ATTR.versionCode));
}

export function versionName(node: PbXmlNode): string | undefined {
  return stringValue(attrById(node.element, ManifestAttr.versionName));
}

function sdkValue(a: PbXmlAttribute | undefined): number | undefined {
  if (!a) return undefined;
  const n = decimalValue(a);
  if (n !== undefined) return n;
  const s = stringValue(a);
  if (s === undefined) return undefined;
  if (/^\d+$/.test(s)) return Number(s);
  // A preview codename: bundletool reads it as the platform it names (or the next one).
  return apiLevelForCodename(s) ?? 10000;
}

export function minSdk(node: PbXmlNode): number | undefined {
  return sdkValue(attrById(children(node.element, 'uses-sdk')[0], ATTR.minSdkVersion));
}

/** bundletool's getEffectiveMinSdkVersion: 1 when the manifest says nothing. */
export function effectiveMinSdk(node: PbXmlNode): number {
  return minSdk(node) ?? 1;
}

export function targetSdk(node: PbXmlNode): number | undefined {
  return sdkValue(attrById(children(node.element, 'uses-sdk')[0], ATTR.targetSdkVersion));
}

export function maxSdk(node: PbXmlNode): number | undefined {
  return sdkValue(attrById(children(node.element, 'uses-sdk')[0], ATTR.maxSdkVersion));
}

export function application(node: PbXmlNode): PbXmlElement | undefined {
  return children(node.element, 'application')[0];
}

/** `<application android:extractNativeLibs>`, undefined when absent. */
export function extractNativeLibs(node: PbXmlNode): boolean | undefined {
  return booleanValue(attrById(application(node), ATTR.extractNativeLibs));
}

export function debuggable(node: PbXmlNode): boolean {
  return booleanValue(attrById(application(node), ATTR.debuggable)) === true;
}

export function androidAttr(name: string, id: number): PbXmlAttribute {
  return { namespace_uri: ANDROID_NS, name, resource_id: id };
}

export function withString(a: PbXmlAttribute, value: string): PbXmlAttribute {
  return { ...a, value, compiled_item: { str: { value } } };
}

export function withReference(a: PbXmlAttribute, id: number): PbXmlAttribute {
  const out: PbXmlAttribute = { ...a, compiled_item: { ref: { id } } };
  delete out.value;
  return out;
}

export function withBoolean(a: PbXmlAttribute, value: boolean): PbXmlAttribute {
  const out: PbXmlAttribute = { ...a, compiled_item: { prim: { boolean_value: value } } };
  delete out.value;
  return out;
}

export function withDecimal(a: PbXmlAttribute, value: number): PbXmlAttribute {
  return { ...a, value: String(value), compiled_item: { prim: { int_decimal_value: value } } };
}

export function element(name: string, attributes: PbXmlAttribute[] = [], namespaceUri = ''): PbXmlElement {
  return { ...(namespaceUri !== '' ? { namespace_uri: namespaceUri } : {}), name, attribute: attributes, child: [] };
}

/** The first child element of that name (no namespace), created at the end when absent. */
export function getOrCreateChild(parent: PbXmlElement, name: string): PbXmlElement {
  const found = children(parent, name)[0];
  if (found) return found;
  const el = element(name);
  (parent.child ??= []).push({ element: el });
  return el;
}

export function addChild(parent: PbXmlElement, el: PbXmlElement): void {
  (parent.child ??= []).push({ element: el });
}

/** Replaces (or appends) the attribute with the same resource id, or the same name and namespace when it has none. */
export function setAttribute(el: PbXmlElement, a: PbXmlAttribute): void {
  const list = (el.attribute ??= []);
  const i = list.findIndex((x) =>
    a.resource_id ? x.resource_id === a.resource_id : (x.resource_id ?? 0) === 0 && x.name === a.name && (x.namespace_uri ?? '') === (a.namespace_uri ?? ''),
  );
  if (i >= 0) list[i] = a;
  else list.push(a);
}

export function removeAttribute(el: PbXmlElement, name: string, namespaceUri = '', id?: number): void {
  el.attribute = (el.attribute ?? []).filter((x) => !(id !== undefined ? x.resource_id === id : x.name === name && (x.namespace_uri ?? '') === namespaceUri));
}

/** ManifestEditor.addMetaDataValue: a new `<meta-data android:name=key …>` at the end of `<application>`. */
export function addMetaData(node: PbXmlNode, key: string, value: PbXmlAttribute): void {
  const app = getOrCreateChild(manifestElement(node), 'application');
  addChild(app, element('meta-data', [withString(androidAttr('name', ATTR.name), key), value]));
}

/** ManifestEditor.setMetadataValue: replaces the value of the meta-data named `key`, or adds one. */
export function setMetaData(node: PbXmlNode, key: string, value: PbXmlAttribute): void {
  const app = getOrCreateChild(manifestElement(node), 'application');
  const existing = children(app, 'meta-data').find((m) => stringValue(attrById(m, ATTR.name)) === key);
  if (existing) {
    existing.attribute = (existing.attribute ?? []).filter((a) => a.resource_id !== ManifestAttr.value);
    existing.attribute.push(value);
  } else {
    addChild(app, element('meta-data', [withString(androidAttr('name', ATTR.name), key), value]));
  }
}
