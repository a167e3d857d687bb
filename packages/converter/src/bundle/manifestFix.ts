import type { PbXmlAttribute, PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import { application, attrById, booleanValue } from '../validate/xml.js';
import { ANDROID_NS, ATTR } from './layout.js';

/**
 * A module without dex must say android:hasCode="false" (DexFilesValidator). Adds it to the
 * manifest's proto message (changed in place), in aapt2's attribute order (ascending resource
 * id), when it is not already so; returns whether anything had to change.
 */
export function ensureNoCode(node: PbXmlNode): boolean {
  const root = node.element;
  if (!root) return false;
  let app = application(node);
  if (booleanValue(attrById(app, ATTR.hasCode)) === false) return false;
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
  return true;
}
