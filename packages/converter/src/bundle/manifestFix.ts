import type { PbXmlAttribute, PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import { application, attrById, booleanValue } from '../validate/xml.js';
import { ANDROID_NS, ATTR } from './layout.js';

/** Puts `attr` on the <application> element in aapt2's attribute order (ascending resource id), replacing any of its id. */
function putApplicationAttribute(app: PbXmlElement, attr: PbXmlAttribute): void {
  const id = attr.resource_id!;
  const rest = (app.attribute ?? []).filter((a) => a.resource_id !== id && !(a.name === attr.name && a.namespace_uri === ANDROID_NS));
  const at = rest.findIndex((a) => !a.resource_id || a.resource_id > id);
  rest.splice(at < 0 ? rest.length : at, 0, attr);
  app.attribute = rest;
}

/**
 * Sets android:extractNativeLibs on <application> (the manifest's proto message, changed in
 * place), as a compiled boolean the way a binary manifest's attribute converts (no raw text).
 */
export function setExtractNativeLibs(node: PbXmlNode, value: boolean): void {
  const app = application(node);
  if (!app) return;
  putApplicationAttribute(app, {
    namespace_uri: ANDROID_NS,
    name: 'extractNativeLibs',
    resource_id: ATTR.extractNativeLibs,
    compiled_item: { prim: { boolean_value: value } },
    source: {},
  });
}

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
  putApplicationAttribute(app, {
    namespace_uri: ANDROID_NS,
    name: 'hasCode',
    value: 'false',
    resource_id: ATTR.hasCode,
    compiled_item: { prim: { boolean_value: false } },
  });
  return true;
}
