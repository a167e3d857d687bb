import type { PbConfigValue, PbEntry, PbPackage, PbResourceTable, PbType } from '../proto/aapt.js';

export interface ValueSite {
  pkg: PbPackage;
  type: PbType;
  entry: PbEntry;
  cv: PbConfigValue;
}

const sitesOfTable = new WeakMap<PbResourceTable, readonly ValueSite[]>();

/**
 * Every config value of a table with where it is. Listed once per table: five validators walk
 * them, and a generator per walk allocated ~6 MB for a 1 MB APK's table (a third of its
 * conversion's garbage), all for the young generation's collections to go through.
 */
export function configValues(table: PbResourceTable | undefined): readonly ValueSite[] {
  if (!table) return [];
  let sites = sitesOfTable.get(table);
  if (!sites) {
    const list: ValueSite[] = [];
    for (const pkg of table.package ?? []) {
      for (const type of pkg.type ?? []) {
        for (const entry of type.entry ?? []) {
          for (const cv of entry.config_value ?? []) list.push({ pkg, type, entry, cv });
        }
      }
    }
    sites = list;
    sitesOfTable.set(table, sites);
  }
  return sites;
}

export function resourceId(pkg: PbPackage, type: PbType, entry: PbEntry): number {
  return (((pkg.package_id?.id ?? 0) << 24) | ((type.type_id?.id ?? 0) << 16) | (entry.entry_id?.id ?? 0)) >>> 0;
}

export function hexId(id: number): string {
  return `0x${id.toString(16).padStart(8, '0')}`;
}

/** Names of a resource for messages: "type/entry (0x7f010000)". */
export function describe(pkg: PbPackage, type: PbType, entry: PbEntry): string {
  return `${type.name ?? '?'}/${entry.name ?? '?'} (${hexId(resourceId(pkg, type, entry))})`;
}

/** Resource type names aapt2 parses (ResourceType); anything else fails "unknown type". */
export const AAPT2_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'anim', 'animator', 'array', 'attr', '^attr-private', 'bool', 'color', 'configVarying', 'dimen', 'drawable', 'font',
  'fraction', 'id', 'integer', 'interpolator', 'layout', 'macro', 'menu', 'mipmap', 'navigation', 'plurals', 'raw',
  'string', 'style', 'styleable', 'transition', 'xml',
]);

export const FILE_TYPE = { UNKNOWN: 0, PNG: 1, BINARY_XML: 2, PROTO_XML: 3 } as const;
