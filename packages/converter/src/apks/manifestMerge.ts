/**
 * The manifest of an APK fused from several modules, as bundletool's FusingAndroidManifestMerger
 * builds it: the base manifest, with the `<application>` children of the other modules (those
 * named by android:name) taking the place of the base's element of the same tag and name, or
 * added at the end. Bundles built by bundletool ≥ 1.8.0 merge activities, aliases, meta-data,
 * providers, receivers and services, gathering the intent filters and meta-data of every
 * module's copy; ≥ 0.13.4 only replaces activities; older ones keep the base manifest.
 */
import { ATTR } from '../bundle/layout.js';
import { ConverterError } from '../errors.js';
import type { PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import { attrById, children, stringValue } from '../validate/xml.js';
import { cloneManifest, getOrCreateChild, manifestElement } from './manifest.js';
import { versionAtLeast, type Version } from './optimizations.js';

const ALL_ELEMENTS = ['activity', 'activity-alias', 'meta-data', 'provider', 'receiver', 'service'];
const GMS_VERSION = 'com.google.android.gms.version';

interface MergeRule {
  elements: ReadonlySet<string>;
  mergeChildren: boolean;
}

function ruleFor(version: Version): MergeRule | undefined {
  if (versionAtLeast(version, '1.8.0')) return { elements: new Set(ALL_ELEMENTS), mergeChildren: true };
  if (versionAtLeast(version, '0.13.4')) return { elements: new Set(['activity']), mergeChildren: false };
  return undefined;
}

function nameOf(el: PbXmlElement): string | undefined {
  const a = attrById(el, ATTR.name);
  return a ? (stringValue(a) ?? '') : undefined;
}

/** The element (deep copy) without source positions, as bundletool compares merged children. */
function withoutSource(el: PbXmlElement): PbXmlElement {
  const copy = structuredClone(el);
  const strip = (e: PbXmlElement): void => {
    for (const a of e.attribute ?? []) delete a.source;
    for (const d of e.namespace_declaration ?? []) delete d.source;
    for (const c of e.child ?? []) {
      delete c.source;
      if (c.element) strip(c.element);
    }
  };
  strip(copy);
  return copy;
}

function mergeElements(key: string, copies: readonly PbXmlElement[], rule: MergeRule): PbXmlElement {
  if (!rule.mergeChildren || copies.length === 1) return copies[0];
  const plain = copies.map(withoutSource);
  const filters = new Map<string, PbXmlElement>();
  const metadata = new Map<string, { el: PbXmlElement; text: string }>();
  for (const el of plain) {
    for (const f of children(el, 'intent-filter')) {
      const text = JSON.stringify(f);
      if (!filters.has(text)) filters.set(text, f);
    }
    for (const m of children(el, 'meta-data')) {
      const name = nameOf(m);
      if (name === undefined) continue;
      const text = JSON.stringify(m);
      const prior = metadata.get(name);
      if (prior && prior.text !== text) {
        throw new ConverterError('INVALID_AAB', `meta-data "${name}" com valores diferentes em módulos distintos, dentro de ${key}`);
      }
      if (!prior) metadata.set(name, { el: m, text });
    }
  }
  const out = structuredClone(plain[0]);
  out.child = (out.child ?? []).filter((c) => {
    if (!c.element) return true;
    if (c.element.name === 'intent-filter' && (c.element.namespace_uri ?? '') === '') return false;
    if (c.element.name === 'meta-data' && (c.element.namespace_uri ?? '') === '') {
      const name = nameOf(c.element);
      return !(name !== undefined && metadata.has(name));
    }
    return true;
  });
  for (const f of filters.values()) out.child.push({ element: f });
  for (const m of metadata.values()) out.child.push({ element: m.el });
  return out;
}

/**
 * The fused manifest: `base` with the other modules' (by module name) application elements
 * merged in. None of the inputs is changed.
 */
export function mergeManifests(base: PbXmlNode, others: ReadonlyMap<string, PbXmlNode>, version: Version): PbXmlNode {
  const rule = ruleFor(version);
  const features = [...others].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, m]) => m);
  if (!rule || features.length === 0) return base;
  const gathered = new Map<string, PbXmlElement[]>();
  for (const m of [...features, base]) {
    const app = children(m.element, 'application')[0];
    for (const c of app?.child ?? []) {
      const el = c.element;
      if (!el || (el.namespace_uri ?? '') !== '' || !rule.elements.has(el.name ?? '')) continue;
      const name = nameOf(el);
      if (name === undefined || (el.name === 'meta-data' && name === GMS_VERSION)) continue;
      const key = `${el.name ?? ''}\u0000${name}`;
      const list = gathered.get(key) ?? [];
      list.push(el);
      gathered.set(key, list);
    }
  }
  const baseApp = children(base.element, 'application')[0];
  const mergeable = (baseApp?.child ?? []).filter((c) => c.element && (c.element.namespace_uri ?? '') === '' && rule.elements.has(c.element.name ?? '')).length;
  const total = [...gathered.values()].reduce((n, l) => n + l.length, 0);
  if (mergeable === total) return base;

  const merged = new Map<string, PbXmlElement>();
  for (const [key, copies] of gathered) merged.set(key, mergeElements(key, copies, rule));
  const out = cloneManifest(base);
  const app = getOrCreateChild(manifestElement(out), 'application');
  const replaced = new Set<string>();
  app.child = (app.child ?? []).map((c) => {
    const el = c.element;
    if (!el) return c;
    const name = nameOf(el);
    const key = `${el.name ?? ''}\u0000${name ?? ''}`;
    const m = name === undefined ? undefined : merged.get(key);
    if (!m) return c;
    replaced.add(key);
    return { element: structuredClone(m) };
  });
  for (const [key, el] of merged) if (!replaced.has(key)) app.child.push({ element: structuredClone(el) });
  return out;
}
