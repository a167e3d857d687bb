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
  const listOf = (split: string): Placed[] => {
    let list = values.get(split);
    if (!list) values.set(split, (list = []));
    return list;
  };
  const put = (split: string, list: Placed[], v: Placed): void => {
    list.push(v);
    const value = v.entry.value;
    if (value.kind === 'simple' && value.value.dataType === DataType.STRING) {
      const s = table.valuePool.get(value.value.data >>> 0);
      if (s.startsWith('res/')) {
        let set = files.get(s);
        if (!set) files.set(s, (set = new Set<string>()));
        set.add(split);
      }
    }
  };
  for (const p of table.packages) {
    // Values with no locale, grouped per resource and per configuration apart from density.
    const groups = new Map<number | string, Placed[]>();
    // Each distinct configuration (apart from density) as a number: group keys stay short.
    const configIds = new Map<string, number>();
    for (const chunk of p.types) {
      if (chunk.entries.length === 0) continue;
      const lang = configLanguage(chunk.config);
      // Per chunk, not per entry: every entry of a chunk shares its configuration.
      const languageSplit = lang !== '' && dims.language ? languageOf(lang) : undefined;
      // bundletool never splits mipmaps by density: launchers may ask for any density of the icon.
      const whole = languageSplit ?? (!dims.density || chunk.name === 'mipmap' ? MASTER : undefined);
      if (whole !== undefined) {
        const list = listOf(whole);
        const entries = chunk.entries;
        for (let i = 0; i < entries.length; i++) put(whole, list, { pkg: p.id, chunk, entry: entries[i]! });
        continue;
      }
      const configKey = configKeyWithoutDensity(chunk.config);
      let configId = configIds.get(configKey);
      if (configId === undefined) configIds.set(configKey, (configId = configIds.size));
      // Indexed loops (here and below): they run once per conversion, mostly before V8 optimises
      // them, where `for...of` allocates per step.
      const entries = chunk.entries;
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]!;
        // A number while it fits in one (the usual case: no string made per value).
        const key = configId < 2 ** 28 && entry.index <= 0xffff ? (configId * 256 + chunk.id) * 65536 + entry.index : `${configId}/${chunk.id}/${entry.index}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = []));
        g.push({ pkg: p.id, chunk, entry });
      }
    }
    const master = (): Placed[] => listOf(MASTER);
    for (const g of groups.values()) {
      if (!g.some((v) => isDensitySpecific(v.chunk.config.density))) {
        const list = master();
        for (const v of g) put(MASTER, list, v);
        continue;
      }
      // Each density split gets the value Android would pick on a screen of its density; a value
      // every bucket picks (the only variant, say) needs no split and stays in the master.
      const picks: Placed[] = [];
      for (const bucket of DENSITY_BUCKETS) {
        let best = g[0];
        for (let i = 1; i < g.length; i++) if (densityBetter(g[i].chunk.config.density, best.chunk.config.density, bucket.dpi)) best = g[i];
        picks.push(best);
      }
      if (picks.every((best) => best === picks[0])) put(MASTER, master(), picks[0]);
      else picks.forEach((best, i) => put(DENSITY_BUCKETS[i].name, listOf(DENSITY_BUCKETS[i].name), best));
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

/** stringCost of each resource name, once per table (each split's model sums them). */
const nameCosts = new WeakMap<ResourceTable, Map<string, number>>();

function nameCost(table: ResourceTable, name: string): number {
  let costs = nameCosts.get(table);
  if (!costs) nameCosts.set(table, (costs = new Map()));
  let cost = costs.get(name);
  if (cost === undefined) costs.set(name, (cost = stringCost(name)));
  return cost;
}

/**
 * Modelled deflated size of a table holding `placed` values (before calibration). The values
 * come chunk by chunk (splitTable and allValues place them so): a chunk's counts are kept
 * while its values follow one another, and looked up again only when the chunk changes.
 */
export function modelTableBytes(table: ResourceTable, placed: readonly Placed[], wholeTypes = false): number {
  const strings = new Set<number>();
  // Keys are numbers (a type id above the package id, a key index per package), chunks themselves:
  // no string per value, and small integers (no number objects) as keys.
  const keys = new Map<number, Map<number, string>>();
  const typeMax = new Map<number, number>();
  const chunks = new Map<ResTypeChunk, { type: number; present: number }>();
  let entryBytes = 0;
  let chunk: ResTypeChunk | undefined;
  let pkg = -1;
  let counts = { type: 0, present: 0 };
  let keysOfPackage = new Map<number, string>();
  let runMax = 0;
  const endRun = (): void => {
    if (chunk !== undefined) typeMax.set(counts.type, Math.max(typeMax.get(counts.type) ?? 0, runMax));
  };
  for (let i = 0; i < placed.length; i++) {
    const v = placed[i];
    if (v.chunk !== chunk || v.pkg !== pkg) {
      endRun();
      chunk = v.chunk;
      if (v.pkg !== pkg) {
        pkg = v.pkg;
        let known = keys.get(pkg);
        if (!known) keys.set(pkg, (known = new Map()));
        keysOfPackage = known;
      }
      const type = pkg * 256 + chunk.id;
      let c = chunks.get(chunk);
      if (!c) chunks.set(chunk, (c = { type, present: 0 }));
      counts = c;
      runMax = 0;
    }
    counts.present++;
    const count = wholeTypes ? chunk.entryCount : v.entry.index + 1;
    if (count > runMax) runMax = count;
    keysOfPackage.set(v.entry.keyIndex >>> 0, v.entry.name);
    const value = v.entry.value;
    if (value.kind === 'simple') {
      entryBytes += 16;
      if (value.value.dataType === DataType.STRING) strings.add(value.value.data >>> 0);
    } else {
      const items = value.items;
      entryBytes += 16 + 12 * items.length;
      for (let k = 0; k < items.length; k++) if (items[k]!.value.dataType === DataType.STRING) strings.add(items[k]!.value.data >>> 0);
    }
  }
  endRun();
  let stringBytes = 0;
  strings.forEach((i) => (stringBytes += poolStringCost(table, i)));
  let keyBytes = 0;
  keys.forEach((names) => names.forEach((k) => (keyBytes += nameCost(table, k))));
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
  for (const p of table.packages) {
    for (const chunk of p.types) {
      const entries = chunk.entries;
      for (let i = 0; i < entries.length; i++) out.push({ pkg: p.id, chunk, entry: entries[i]! });
    }
  }
  return out;
}
