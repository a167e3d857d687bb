/**
 * `res/xml/splits0.xml`: the resource bundletool injects into every base APK it builds, named by
 * the manifest's `<meta-data android:name="com.android.vending.splits" android:resource=...>`.
 * bundletool injects it again when it builds APKs from our bundle, so an APK that came out of
 * bundletool (a split set, or a base pulled from a device) must lose it, together with the
 * meta-data (removed by the manifest repair), or the rebuilt APK would carry two.
 */
import type { ResourceTable } from '../arsc/model.js';
import { DataType, entryIdOf, packageIdOf, typeIdOf } from '../arsc/values.js';
import type { XmlDocument, XmlElement } from '../axml/model.js';
import type { PbResourceTable } from '../proto/aapt.js';
import { ANDROID_NS, AndroidAttr, attrText, findAndroidAttr } from '../resources/manifest.js';

const SPLITS_META_DATA = 'com.android.vending.splits';
const RESOURCE_ATTR = 0x01010025;

export interface SplitsXml {
  id: number;
  /** The file the resource names in this table, when it is the `xml` type's file resource. */
  pathIn(table: ResourceTable): string | undefined;
}

function elements(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.kind === 'element' && c.name === name && c.namespaceUri === '');
}

export function splitsXmlResource(doc: XmlDocument): SplitsXml | undefined {
  for (const app of elements(doc.root, 'application')) {
    for (const meta of elements(app, 'meta-data')) {
      const name = findAndroidAttr(meta, 'name', AndroidAttr.name);
      if (!name || attrText(doc, name) !== SPLITS_META_DATA) continue;
      const res = meta.attributes.find((a) => a.resourceId === RESOURCE_ATTR || (a.namespaceUri === ANDROID_NS && a.name === 'resource'));
      if (!res || res.typedValue.dataType !== DataType.REFERENCE) return undefined;
      const id = res.typedValue.data >>> 0;
      return {
        id,
        pathIn(table) {
          for (const p of table.packages) {
            if (p.id !== packageIdOf(id)) continue;
            for (const t of p.types) {
              if (t.id !== typeIdOf(id) || t.name !== 'xml') continue;
              const e = t.entries.find((x) => x.index === entryIdOf(id));
              if (e?.value.kind === 'simple' && e.value.value.dataType === DataType.STRING) {
                const path = table.valuePool.get(e.value.value.data >>> 0);
                return /^res\/xml[^/]*\/splits\d*\.xml$/.test(path) ? path : undefined;
              }
            }
          }
          return undefined;
        },
      };
    }
  }
  return undefined;
}

/** A copy of the table without the resource `id` (and without a type it leaves empty). */
export function withoutResource(table: PbResourceTable, id: number): PbResourceTable {
  return {
    ...table,
    package: table.package.map((p) =>
      (p.package_id.id ?? 0) !== packageIdOf(id)
        ? p
        : {
            ...p,
            type: p.type
              .map((t) =>
                (t.type_id.id ?? 0) !== typeIdOf(id) ? t : { ...t, entry: t.entry.filter((e) => (e.entry_id.id ?? 0) !== entryIdOf(id)) },
              )
              .filter((t) => t.entry.length > 0),
          },
    ),
  };
}
