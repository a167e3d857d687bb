/**
 * Splits the values of a resource table the way bundletool does for config splits (language,
 * screen density), and estimates the compressed size of the resources.arsc each split gets.
 */
import { configLanguage, type ResTableConfig } from '../arsc/config.js';
import type { ResEntry, ResourceTable, ResTypeChunk } from '../arsc/model.js';
import { DataType } from '../arsc/values.js';
import { DENSITY_ANY, DENSITY_BUCKETS, DENSITY_DEFAULT, DENSITY_NONE, densityBetter, languageOf } from './devices.js';

export const MASTER = 'master';

/** One value: the entry of one type chunk (one resource in one configuration). */
interface Placed {
  pkg: number;
  chunk: ResTypeChunk;
  entry: ResEntry;
}

export interface TableSplits {
  /** Split name (`master`, a language such as `pt`, a density bucket such as `xxhdpi`) → its values. */
  values: Map<string, Placed[]>;
  /** res/ file path → the splits whose values name it. */
  files: Map<string, Set<string>>;
}

export interface SplitDimensions {
  language: boolean;
  density: boolean;
}

function configKeyWithoutDensity(c: ResTableConfig): string {
  return JSON.stringify({ ...c, density: 0, extra: undefined });
}

const isDensitySpecific = (d: number): boolean => d !== DENSITY_DEFAULT && d !== DENSITY_ANY && d !== DENSITY_NONE;

/** Places every value of the table in the master or in a language or density split. */
export function splitTable(table: ResourceTable, dims: SplitDimensions): TableSplits {
  const values = new Map<string, Placed[]>();
  const files = new Map<string, Set<string>>();
  const put = (split: string, v: Placed): void => {
    const list = values.get(split) ?? [];
    list.push(v);
    values.set(split, list);
    if (v.entry.value.kind === 'simple' && v.entry.value.value.dataType === DataType.STRING) {
      const s = table.valuePool.get(v.entry.value.value.data >>> 0);
      if (s.startsWith('res/')) {
        const set = files.get(s) ?? new Set<string>();
        set.add(split);
        files.set(s, set);
      }
    }
  };
  for (const p of table.packages) {
    // Values with no locale, grouped per resource and per configuration apart from density.
    const groups = new Map<string, Placed[]>();
    // Each distinct configuration (apart from density) as a number: group keys stay short.
    const configIds = new Map<string, number>();
    for (const chunk of p.types) {
      const lang = configLanguage(chunk.config);
      // Per chunk, not per entry: every entry of a chunk shares its configuration.
      const languageSplit = lang !== '' && dims.language ? languageOf(lang) : undefined;
      // bundletool never splits mipmaps by density: launchers may ask for any density of the icon.
      const whole = languageSplit ?? (!dims.density || chunk.name === 'mipmap' ? MASTER : undefined);
      let configId: number | undefined;
      for (const entry of chunk.entries) {
        const v: Placed = { pkg: p.id, chunk, entry };
        if (whole !== undefined) put(whole, v);
        else {
          if (configId === undefined) {
            const configKey = configKeyWithoutDensity(chunk.config);
            configId = configIds.get(configKey);
            if (configId === undefined) configIds.set(configKey, (configId = configIds.size));
          }
          const key = `${configId}/${chunk.id}/${entry.index}`;
          const g = groups.get(key) ?? [];
          g.push(v);
          groups.set(key, g);
        }
      }
    }
    for (const g of groups.values()) {
      if (!g.some((v) => isDensitySpecific(v.chunk.config.density))) {
        for (const v of g) put(MASTER, v);
        continue;
      }
      // Each density split gets the value Android would pick on a screen of its density; a value
      // every bucket picks (the only variant, say) needs no split and stays in the master.
      const picks = DENSITY_BUCKETS.map((bucket) => {
        let best = g[0];
        for (const v of g.slice(1)) if (densityBetter(v.chunk.config.density, best.chunk.config.density, bucket.dpi)) best = v;
        return { bucket: bucket.name, best };
      });
      if (picks.every((p) => p.best === picks[0].best)) put(MASTER, picks[0].best);
      else for (const { bucket, best } of picks) put(bucket, best);
    }
  }
  return { values, files };
}

/** Cost model weights: bytes of deflated output per raw byte of each part of a table. */
const W = { strings: 0.45, keys: 0.4, entries: 0.3, present: 0.5, absent: 0.01, specs: 0.05, headers: 0.5 };

function stringCost(s: string): number {
  return Buffer.byteLength(s, 'utf8') + 4 + 4;
}

/** stringCost of each value-pool string, by index, once per table (each split's model sums them). */
const poolCosts = new WeakMap<ResourceTable, Map<number, number>>();

function poolStringCost(table: ResourceTable, index: number): number {
  let costs = poolCosts.get(table);
  if (!costs) poolCosts.set(table, (costs = new Map()));
  let cost = costs.get(index);
  if (cost === undefined) costs.set(index, (cost = stringCost(table.valuePool.get(index))));
  return cost;
}

/** Modelled deflated size of a table holding `placed` values (before calibration). */
export function modelTableBytes(table: ResourceTable, placed: readonly Placed[], wholeTypes = false): number {
  const strings = new Set<number>();
  // Keys are numbers (a type id above the package id, a key index per package), chunks themselves:
  // no string per value, and small integers (no number objects) as keys.
  const keys = new Map<number, Map<number, string>>();
  const typeMax = new Map<number, number>();
  const chunks = new Map<ResTypeChunk, { type: number; present: number }>();
  let entryBytes = 0;
  const addString = (dataType: number, data: number): void => {
    if (dataType === DataType.STRING) strings.add(data >>> 0);
  };
  for (const v of placed) {
    const typeKey = v.pkg * 256 + v.chunk.id;
    const count = wholeTypes ? v.chunk.entryCount : v.entry.index + 1;
    typeMax.set(typeKey, Math.max(typeMax.get(typeKey) ?? 0, count));
    let c = chunks.get(v.chunk);
    if (!c) chunks.set(v.chunk, (c = { type: typeKey, present: 0 }));
    c.present++;
    let keysOfPackage = keys.get(v.pkg);
    if (!keysOfPackage) keys.set(v.pkg, (keysOfPackage = new Map()));
    keysOfPackage.set(v.entry.keyIndex >>> 0, v.entry.name);
    if (v.entry.value.kind === 'simple') {
      entryBytes += 16;
      addString(v.entry.value.value.dataType, v.entry.value.value.data);
    } else {
      entryBytes += 16 + 12 * v.entry.value.items.length;
      for (const it of v.entry.value.items) addString(it.value.dataType, it.value.data);
    }
  }
  let stringBytes = 0;
  for (const i of strings) stringBytes += poolStringCost(table, i);
  let keyBytes = 0;
  for (const keysOfPackage of keys.values()) for (const k of keysOfPackage.values()) keyBytes += stringCost(k);
  let present = 0;
  let absent = 0;
  let headers = 12 + 28 + 288 + 56;
  for (const c of chunks.values()) {
    const n = typeMax.get(c.type) ?? 0;
    present += 4 * c.present;
    absent += 4 * Math.max(0, n - c.present);
    headers += 84;
  }
  let specs = 0;
  for (const n of typeMax.values()) {
    specs += 4 * n;
    headers += 16 + 16;
  }
  return (
    W.strings * stringBytes +
    W.keys * keyBytes +
    W.entries * entryBytes +
    W.present * present +
    W.absent * absent +
    W.specs * specs +
    W.headers * headers
  );
}

/** Every value of the table, for calibrating the model against the real deflated table. */
export function allValues(table: ResourceTable): Placed[] {
  const out: Placed[] = [];
  for (const p of table.packages) for (const chunk of p.types) for (const entry of chunk.entries) out.push({ pkg: p.id, chunk, entry });
  return out;
}
