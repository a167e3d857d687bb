/**
 * What bundletool adds to the APKs it builds beyond the bundle's own content (docs/apks.md):
 * - `res/xml/splitsN.xml`, the languages of the app and the split holding each, as a new `xml`
 *   resource named by `<meta-data android:name="com.android.vending.splits">`;
 * - `com.android.dynamic.apk.fused.modules`, the modules fused into a standalone APK;
 * - the ART baseline profile and the code transparency file kept in BUNDLE-METADATA.
 */
import type { PbEntry, PbPackage, PbResourceTable, PbType, PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import { ConverterError } from '../errors.js';
import type { ZipEntry } from '../zip/index.js';
import { addMetaData, androidAttr, element, ManifestAttr, setMetaData, withReference, withString } from './manifest.js';
import type { PlannedFile } from './plan.js';
import { makeResId } from '../arsc/values.js';

export const SPLITS_META_DATA = 'com.android.vending.splits';
export const FUSED_MODULES_META_DATA = 'com.android.dynamic.apk.fused.modules';

/**
 * Java's Locale.forLanguageTag(tag).getLanguage(), as bundletool runs it: the lower-case language
 * subtag of a well-formed tag ("" otherwise), the three renamed ISO codes under their old names
 * (Hebrew "iw", Indonesian "in", Yiddish "ji"), as Android names them.
 */
export function languageOf(locale: string): string {
  const first = locale.split('-')[0]?.toLowerCase() ?? '';
  if (!/^[a-z]{2,8}$/.test(first) || first === 'und') return '';
  return ({ he: 'iw', id: 'in', yi: 'ji' } as Record<string, string>)[first] ?? first;
}

/** Every language of the table's configurations (bundletool's getAllLanguages), "" left out. */
export function tableLanguages(table: PbResourceTable): Set<string> {
  const out = new Set<string>();
  for (const p of table.package ?? []) for (const t of p.type ?? []) for (const e of t.entry ?? []) for (const cv of e.config_value ?? []) {
    const l = languageOf(cv.config?.locale ?? '');
    if (l !== '') out.add(l);
  }
  return out;
}

const strAttr = (name: string, value: string): NonNullable<PbXmlElement['attribute']>[number] => ({ name, value, compiled_item: { str: { value } } });

/** splits.xml as bundletool's SplitsProtoXmlBuilder writes it: modules, then languages, in sorted order. */
export function splitsXml(mapping: ReadonlyMap<string, ReadonlyMap<string, string>>): PbXmlNode {
  const root = element('splits');
  const sorted = <T>(m: ReadonlyMap<string, T>): [string, T][] => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [module, languages] of sorted(mapping)) {
    const language = element('language');
    for (const [key, split] of sorted(languages)) language.child!.push({ element: element('entry', [strAttr('key', key), strAttr('split', split)]) });
    const m = element('module', [strAttr('name', module)]);
    m.child!.push({ element: language });
    root.child!.push({ element: m });
  }
  return { element: root };
}

/**
 * bundletool's ResourceInjector: adds a file resource of type `typeName` to the table's first
 * package (a new 0x7f package named after the app when there is none), in the first type of that
 * name or a new one after the highest type id, with the next entry id. Returns the new table and id.
 */
export function injectFileResource(table: PbResourceTable | undefined, packageName: string, typeName: string, entryName: string, path: string): { table: PbResourceTable; id: number } {
  // Copied along the path to the new entry only: the rest of the table is shared, never changed.
  const out: PbResourceTable = table ? { ...table, package: [...table.package] } : { package: [] };
  const first = out.package[0];
  const pkg: PbPackage = first ? { ...first, type: [...first.type] } : { package_id: { id: 0x7f }, package_name: packageName, type: [] };
  out.package[0] = pkg;
  const at = pkg.type.findIndex((t) => t.name === typeName);
  let type: PbType;
  if (at >= 0) {
    type = { ...pkg.type[at], entry: [...pkg.type[at].entry] };
    pkg.type[at] = type;
  } else {
    const next = pkg.type.reduce((m, t) => Math.max(m, t.type_id?.id ?? 0), 0) + 1;
    type = { type_id: { id: next }, name: typeName, entry: [] };
    pkg.type.push(type);
  }
  const highest = type.entry.reduce((m, e) => Math.max(m, e.entry_id?.id ?? 0), -1);
  if (highest >= 0xffff) throw new ConverterError('INVALID_AAB', `sem ids livres no tipo ${typeName}`);
  const entry: PbEntry = {
    entry_id: { id: highest + 1 },
    name: entryName,
    visibility: {},
    config_value: [{ config: {}, value: { item: { file: { path, type: 3 } } } }],
  };
  type.entry.push(entry);
  const id = makeResId(pkg.package_id?.id ?? 0, type.type_id?.id ?? 0, highest + 1);
  return { table: out, id };
}

export interface InjectedSplitsXml {
  table: PbResourceTable;
  manifest: PbXmlNode;
  path: string;
  xml: PbXmlNode;
}

/** Adds splitsN.xml (N the first free number among `taken` paths) and its meta-data, the latter to `manifest` itself (the caller's own copy). */
export function injectSplitsXml(
  table: PbResourceTable | undefined,
  manifest: PbXmlNode,
  packageName: string,
  mapping: ReadonlyMap<string, ReadonlyMap<string, string>>,
  taken: (path: string) => boolean,
): InjectedSplitsXml {
  let n = 0;
  while (taken(`res/xml/splits${n}.xml`)) n++;
  const path = `res/xml/splits${n}.xml`;
  const injected = injectFileResource(table, packageName, 'xml', `splits${n}`, path);
  addMetaData(manifest, SPLITS_META_DATA, withReference(androidAttr('resource', ManifestAttr.resource), injected.id));
  return { table: injected.table, manifest, path, xml: splitsXml(mapping) };
}

/** ManifestEditor.setFusedModuleNames: the distinct names, sorted, comma-separated. */
export function setFusedModuleNames(manifest: PbXmlNode, names: readonly string[]): void {
  const value = [...new Set(names)].sort().join(',');
  setMetaData(manifest, FUSED_MODULES_META_DATA, withString(androidAttr('value', ManifestAttr.value), value));
}

const PROFILE_NAMESPACES = ['com.android.tools.build.profiles', 'assets.dexopt'];
const TRANSPARENCY = 'com.android.tools.build.bundletool/code_transparency_signed.jwt';

/** The baseline profile files (stored, under assets/dexopt/) and the code transparency file of the bundle's metadata. */
export function metadataFiles(metadata: ReadonlyMap<string, ZipEntry>, transparency: boolean): PlannedFile[] {
  const out: PlannedFile[] = [];
  for (const file of ['baseline.prof', 'baseline.profm']) {
    const ns = PROFILE_NAMESPACES.find((n) => metadata.has(`${n}/${file}`));
    if (ns) out.push({ modulePath: `assets/dexopt/${file}`, path: `assets/dexopt/${file}`, entry: metadata.get(`${ns}/${file}`), forceUncompressed: true });
  }
  const jwt = metadata.get(TRANSPARENCY);
  if (transparency && jwt) out.push({ modulePath: 'META-INF/code_transparency_signed.jwt', path: 'META-INF/code_transparency_signed.jwt', entry: jwt });
  return out;
}
