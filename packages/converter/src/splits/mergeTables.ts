/**
 * One resource table from a module's master APK and its configuration splits. bundletool cut
 * one table into them by configuration (density, language, ABI), keeping every id, so the
 * module's table is their union: packages by id, types by id, entries by id, and within an
 * entry one value per configuration. The same configuration in two splits must hold the same
 * value (bundletool never duplicates one); two that disagree are refused.
 */
import { ConverterError } from '../errors.js';
import type { PbEntry, PbPackage, PbResourceTable, PbType } from '../proto/aapt.js';
import { configProtoKey } from '../resources/configProto.js';

function hexId(pkg: number, type: number, entry: number): string {
  return `0x${(((pkg << 24) | (type << 16) | entry) >>> 0).toString(16).padStart(8, '0')}`;
}

/** Stable text of a value for comparing two splits' copies (both built by the same code, same key order). */
function valueKey(v: unknown): string {
  return JSON.stringify(v);
}

/**
 * Merges `tables` (the master's first) into a new table; none of the inputs is changed. Order
 * follows the master, then each split in turn, as aapt2 would read them one after the other.
 */
export function mergeResourceTables(tables: readonly PbResourceTable[], labels: readonly string[]): PbResourceTable {
  const packages = new Map<number, { pkg: PbPackage; types: Map<number, { type: PbType; entries: Map<number, { entry: PbEntry; values: Map<string, string> }> }> }>();
  const dynamic = new Map<number, { package_id: { id?: number }; package_name?: string }>();
  const overlayable: NonNullable<PbResourceTable['overlayable']> = [];
  tables.forEach((table, t) => {
    for (const d of table.dynamic_ref_table ?? []) if (!dynamic.has(d.package_id.id ?? 0)) dynamic.set(d.package_id.id ?? 0, d);
    if (t === 0) overlayable.push(...(table.overlayable ?? []));
    for (const p of table.package) {
      const pid = p.package_id.id ?? 0;
      let pm = packages.get(pid);
      if (!pm) {
        pm = { pkg: { ...p, type: [] }, types: new Map() };
        packages.set(pid, pm);
      }
      for (const type of p.type) {
        const tid = type.type_id.id ?? 0;
        let tm = pm.types.get(tid);
        if (!tm) {
          tm = { type: { ...type, entry: [] }, entries: new Map() };
          pm.types.set(tid, tm);
        } else if ((tm.type.name ?? '') !== (type.name ?? '')) {
          throw new ConverterError('SPLIT_CONFLICT', `${labels[t]}: tipo ${tid} chama-se "${type.name ?? ''}" aqui e "${tm.type.name ?? ''}" no APK base`);
        }
        for (const entry of type.entry) {
          const eid = entry.entry_id.id ?? 0;
          let em = tm.entries.get(eid);
          if (!em) {
            em = { entry: { ...entry, config_value: [] }, values: new Map() };
            tm.entries.set(eid, em);
          } else {
            if ((em.entry.name ?? '') !== (entry.name ?? '')) {
              throw new ConverterError('SPLIT_CONFLICT', `${labels[t]}: recurso ${hexId(pid, tid, eid)} chama-se "${entry.name ?? ''}" aqui e "${em.entry.name ?? ''}" antes`);
            }
            if (entry.visibility.level === 2) em.entry.visibility = { ...em.entry.visibility, level: 2 };
          }
          for (const cv of entry.config_value) {
            const key = configProtoKey(cv.config);
            const value = valueKey(cv.value);
            const prior = em.values.get(key);
            if (prior === undefined) {
              em.values.set(key, value);
              em.entry.config_value.push(cv);
            } else if (prior !== value) {
              throw new ConverterError('SPLIT_CONFLICT', `${labels[t]}: ${tm.type.name ?? tid}/${entry.name ?? eid} (${hexId(pid, tid, eid)}) tem outro valor na mesma configuração`);
            }
          }
        }
      }
    }
  });
  const out: PbResourceTable = {
    package: [...packages.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, pm]) => ({
        ...pm.pkg,
        type: [...pm.types.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([, tm]) => ({ ...tm.type, entry: [...tm.entries.entries()].sort((a, b) => a[0] - b[0]).map(([, em]) => em.entry) })),
      })),
  };
  if (overlayable.length > 0) out.overlayable = overlayable;
  if (dynamic.size > 0) out.dynamic_ref_table = [...dynamic.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d);
  return out;
}
