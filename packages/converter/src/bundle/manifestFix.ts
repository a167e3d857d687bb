import { AaptPb, encodeAapt, type PbXmlAttribute, type PbXmlElement } from '../proto/aapt.js';
import { application, attrById, booleanValue, decodeXmlNode } from '../validate/xml.js';
import { ANDROID_NS, ATTR } from './layout.js';

/**
 * A module without dex must say android:hasCode="false" (DexFilesValidator). Adds it to the
 * manifest proto, in aapt2's attribute order (ascending resource id), when it is not already so;
 * returns undefined when nothing had to change.
 */
export function ensureNoCode(manifestPb: Uint8Array): Uint8Array | undefined {
  const node = decodeXmlNode(manifestPb);
  const root = node.element;
  if (!root) return undefined;
  let app = application(node);
  if (booleanValue(attrById(app, ATTR.hasCode)) === false) return undefined;
  if (!app) {
    app = { name: 'application' };
    root.child = [...(root.child ?? []), { element: app }];
  }
  const attr: PbXmlAttribute = {
    namespace_uri: ANDROID_NS,
    name: 'hasCode',
    value: 'false',
    resource_id: ATTR.hasCode,
    compiled_item: { prim: { boolean_value: false } },
  };
  const rest = (app.attribute ?? []).filter((a) => a.resource_id !== ATTR.hasCode && !(a.name === 'hasCode' && a.namespace_uri === ANDROID_NS));
  const at = rest.findIndex((a) => !a.resource_id || a.resource_id > ATTR.hasCode);
  rest.splice(at < 0 ? rest.length : at, 0, attr);
  (app as PbXmlElement).attribute = rest;
  return encodeAapt(AaptPb.XmlNode, node);
}
