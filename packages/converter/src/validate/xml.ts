/** Reading decoded proto XML (aapt.pb.XmlNode) the way bundletool does: attributes by resource id. */
import { AaptPb, type PbItem, type PbXmlAttribute, type PbXmlElement, type PbXmlNode } from '../proto/aapt.js';

export function decodeXmlNode(bytes: Uint8Array): PbXmlNode {
  return AaptPb.XmlNode.toObject(AaptPb.XmlNode.decode(bytes), { longs: Number, enums: Number }) as PbXmlNode;
}

export function children(el: PbXmlElement | undefined, name: string, ns = ''): PbXmlElement[] {
  return (el?.child ?? []).flatMap((c) => (c.element && c.element.name === name && (c.element.namespace_uri ?? '') === ns ? [c.element] : []));
}

export function descendants(el: PbXmlElement | undefined, name: string, ns = ''): PbXmlElement[] {
  const out: PbXmlElement[] = [];
  const walk = (e: PbXmlElement): void => {
    for (const c of e.child ?? []) {
      if (!c.element) continue;
      if (c.element.name === name && (c.element.namespace_uri ?? '') === ns) out.push(c.element);
      walk(c.element);
    }
  };
  if (el) walk(el);
  return out;
}

export function attrById(el: PbXmlElement | undefined, id: number): PbXmlAttribute | undefined {
  return el?.attribute?.find((a) => a.resource_id === id);
}

export function attrByName(el: PbXmlElement | undefined, name: string, ns = ''): PbXmlAttribute | undefined {
  return el?.attribute?.find((a) => a.name === name && (a.namespace_uri ?? '') === ns);
}

/** Decimal integer as bundletool's getValueAsDecimalInteger reads it; undefined when not one. */
export function decimalValue(a: PbXmlAttribute | undefined): number | undefined {
  const v = a?.compiled_item?.prim?.int_decimal_value;
  if (v !== undefined) return v;
  if (a?.compiled_item?.prim && 'int_decimal_value' in a.compiled_item.prim) return 0;
  return undefined;
}

/** Boolean primitive, or the raw string "true"/"false". */
export function booleanValue(a: PbXmlAttribute | undefined): boolean | undefined {
  const prim = a?.compiled_item?.prim;
  if (prim && 'boolean_value' in prim) return prim.boolean_value === true;
  if (a?.value === 'true') return true;
  if (a?.value === 'false') return false;
  return undefined;
}

/** String attribute as bundletool reads `package` and `split`: compiled str, else the raw value. */
export function stringValue(a: PbXmlAttribute | undefined): string | undefined {
  if (!a) return undefined;
  const item: PbItem | undefined = a.compiled_item;
  return item?.str?.value ?? a.value;
}

export function application(manifest: PbXmlNode | undefined): PbXmlElement | undefined {
  return children(manifest?.element, 'application')[0];
}

/** `<dist:module dist:type="asset-pack">`: a module of assets only (bundletool's ASSET_MODULE). */
export function isAssetPackManifest(manifest: PbXmlNode | undefined, distNs: string): boolean {
  const dist = children(manifest?.element, 'module', distNs)[0];
  return stringValue(attrByName(dist, 'type', distNs)) === 'asset-pack';
}
