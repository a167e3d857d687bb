import { configBcp47 } from '../arsc/config.js';
import { type ResourceTable } from '../arsc/model.js';
import { DataType } from '../arsc/values.js';
import { AAPT2_TYPE_NAMES } from './tableProto.js';
import { FileType, inferFileType, isFilePath } from './valueProto.js';

/**
 * Every res/ path that a top-level value of the table names as a file (what aapt2 convert
 * copies or converts, and what bundletool checks), in first-seen order, without duplicates.
 */
export function listReferencedFiles(table: ResourceTable): string[] {
  const seen = new Set<string>();
  for (const p of table.packages) {
    for (const t of p.types) {
      if (!AAPT2_TYPE_NAMES.has(t.name) || t.name === 'id') continue;
      for (const e of t.entries) {
        if (e.value.kind !== 'simple' || e.value.value.dataType !== DataType.STRING) continue;
        const index = e.value.value.data >>> 0;
        if (table.valuePool.styleAt(index)) continue;
        const s = table.valuePool.get(index);
        if (isFilePath(t.name, s)) seen.add(s);
      }
    }
  }
  return [...seen];
}

/**
 * The referenced files aapt2 converts to proto XML: those some value names as BINARY_XML (an
 * `.xml` path outside `raw/`). Any other file, binary XML or not, is copied as its bytes, as
 * `aapt2 convert` does, so the APKs built from the bundle hold it byte for byte.
 */
export function protoXmlCandidates(table: ResourceTable): Set<string> {
  const out = new Set<string>();
  for (const p of table.packages) {
    for (const t of p.types) {
      if (!AAPT2_TYPE_NAMES.has(t.name) || t.name === 'id' || t.name === 'raw') continue;
      for (const e of t.entries) {
        if (e.value.kind !== 'simple' || e.value.value.dataType !== DataType.STRING) continue;
        const index = e.value.value.data >>> 0;
        if (table.valuePool.styleAt(index)) continue;
        const s = table.valuePool.get(index);
        if (isFilePath(t.name, s) && inferFileType(t.name, s) === FileType.BINARY_XML) out.add(s);
      }
    }
  }
  return out;
}

export interface TableSummary {
  /** BCP-47 tags of every non-default locale a configuration names, sorted. */
  readonly locales: string[];
  /** Densities (dpi; 0xfffe anydpi, 0xffff nodpi) of every configuration that sets one, sorted. */
  readonly densities: number[];
  /** Distinct resource ids that have at least one value. */
  readonly entryCount: number;
  /** Distinct (package, type id) pairs with entries. */
  readonly typeCount: number;
}

export function tableSummary(table: ResourceTable): TableSummary {
  const locales = new Set<string>();
  const densities = new Set<number>();
  const ids = new Set<number>();
  const types = new Set<number>();
  for (const p of table.packages) {
    for (const t of p.types) {
      if (t.entries.length === 0) continue;
      const locale = configBcp47(t.config);
      if (locale !== '') locales.add(locale);
      if (t.config.density !== 0) densities.add(t.config.density);
      types.add((p.id << 8) | t.id);
      for (const e of t.entries) ids.add(((p.id << 24) | (t.id << 16) | e.index) >>> 0);
    }
  }
  return {
    locales: [...locales].sort(),
    densities: [...densities].sort((a, b) => a - b),
    entryCount: ids.size,
    typeCount: types.size,
  };
}
