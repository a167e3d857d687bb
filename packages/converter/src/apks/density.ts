/**
 * Screen density splits as bundletool cuts them (docs/apks.md): for each of seven density
 * buckets, the values of each resource that a device served by that bucket could pick — a group
 * of configurations differing only in density, and only when it has alternatives —, chosen the
 * way Android picks densities (scaling down is twice as good as scaling up); mipmaps stay in the
 * master. The same rule tells which bucket's split a device gets.
 */
import type { PbConfigValue, PbEntry, PbResourceTable } from '../proto/aapt.js';
import { versionAtLeast, type Version } from './optimizations.js';
import { makeResId } from '../arsc/values.js';

export const DENSITY_DEFAULT = 0;
export const DENSITY_ANY = 0xfffe;
export const DENSITY_NONE = 0xffff;
const MDPI = 160;

/** bundletool's density buckets, in its order, with their dpi and suffix. */
export const DENSITY_BUCKETS: readonly { name: string; dpi: number }[] = [
  { name: 'ldpi', dpi: 120 },
  { name: 'mdpi', dpi: 160 },
  { name: 'hdpi', dpi: 240 },
  { name: 'xhdpi', dpi: 320 },
  { name: 'xxhdpi', dpi: 480 },
  { name: 'xxxhdpi', dpi: 640 },
  { name: 'tvdpi', dpi: 213 },
];

/** Which of two dpis better suits `desired`: > 0 when `a`, < 0 when `b` (Android's rule). */
export function compareDensities(a: number, b: number, desiredDpi: number): number {
  const desired = desiredDpi === DENSITY_DEFAULT || desiredDpi === DENSITY_ANY ? MDPI : desiredDpi;
  if (a === b) return 0;
  if (a === DENSITY_ANY) return 1;
  if (b === DENSITY_ANY) return -1;
  const ordered = (lower: number, higher: number): number => {
    if (desired >= higher) return -1;
    if (desired <= lower) return 1;
    return (2 * lower - desired) * higher > desired * desired ? 1 : -1;
  };
  return a > b ? -ordered(b, a) : ordered(a, b);
}

/** The best of `densities` for a device of `desiredDpi` (the first of equals). */
export function bestDensity(densities: readonly number[], desiredDpi: number): number {
  let best = densities[0];
  for (const d of densities.slice(1)) if (compareDensities(d, best, desiredDpi) > 0) best = d;
  return best;
}

const dpiOf = (cv: PbConfigValue): number => {
  const d = cv.config?.density ?? 0;
  return d === DENSITY_DEFAULT ? MDPI : d;
};
const isExplicit = (cv: PbConfigValue): boolean => {
  const d = cv.config?.density ?? 0;
  return d !== DENSITY_ANY && d !== DENSITY_DEFAULT && d !== DENSITY_NONE;
};

function bestValue(values: readonly PbConfigValue[], desiredDpi: number, preferExplicit: boolean): PbConfigValue {
  const cmp = (a: PbConfigValue, b: PbConfigValue): number => {
    const c = compareDensities(dpiOf(a), dpiOf(b), desiredDpi);
    if (c !== 0 || !preferExplicit) return c;
    return (isExplicit(a) ? 1 : 0) - (isExplicit(b) ? 1 : 0);
  };
  let best = values[0];
  for (const v of values.slice(1)) if (cmp(v, best) > 0) best = v;
  return best;
}

/** The dpi range of devices a bucket serves, given the other buckets: midpoints by Android's 2:1 rule. */
function servedRange(target: number, others: readonly number[]): [number, number] {
  const mid = (lower: number, higher: number): number => (-higher + Math.sqrt(higher * higher + 8 * lower * higher)) / 2;
  const lower = others.filter((d) => d < target);
  const higher = others.filter((d) => d > target);
  const lo = lower.length > 0 ? Math.ceil(mid(Math.max(...lower), target)) : -Infinity;
  const hi = higher.length > 0 ? Math.floor(mid(target, Math.min(...higher))) : Infinity;
  return [lo, hi];
}

/** The values of one density group a device in the bucket's range could be served (ScreenDensitySelector). */
function reachable(values: readonly PbConfigValue[], target: number, others: readonly number[], preferExplicit: boolean): PbConfigValue[] {
  const [lo, hi] = servedRange(target, others);
  const low = Number.isFinite(lo) ? (bestValue(values, lo, preferExplicit).config?.density ?? 0) : -Infinity;
  const high = Number.isFinite(hi) ? (bestValue(values, hi, preferExplicit).config?.density ?? 0) : Infinity;
  return values.filter((v) => {
    const d = v.config?.density ?? 0;
    return d >= low && d <= high;
  });
}

function configKeyWithoutDensity(cv: PbConfigValue): string {
  const { density: _density, ...rest } = cv.config ?? {};
  return JSON.stringify(rest);
}

/**
 * The entry's values for one bucket, as bundletool's filterEntryForDensity keeps them: none when
 * the resource is pinned to the master; for styles (bundles of 0.14.0 on), not those the lowest
 * bucket would pick, which stay in the master.
 */
function entryForDensity(entry: PbEntry, target: number, version: Version, pinned: boolean, style: boolean, pinStyles: boolean): PbConfigValue[] {
  if (pinned) return [];
  const noAlternativesInMaster = versionAtLeast(version, '0.4.0');
  const preferExplicit = versionAtLeast(version, '0.9.1');
  const groups = new Map<string, PbConfigValue[]>();
  for (const cv of entry.config_value ?? []) {
    if (!noAlternativesInMaster && (cv.config?.density ?? 0) === DENSITY_DEFAULT) continue;
    const key = configKeyWithoutDensity(cv);
    const list = groups.get(key) ?? [];
    list.push(cv);
    groups.set(key, list);
  }
  const buckets = DENSITY_BUCKETS.map((b) => b.dpi);
  const others = buckets.filter((d) => d !== target);
  const lowest = Math.min(...buckets);
  const pinLowest = style && pinStyles && versionAtLeast(version, '0.14.0');
  const out: PbConfigValue[] = [];
  for (const group of groups.values()) {
    if (noAlternativesInMaster && group.length <= 1) continue;
    const kept = new Set(pinLowest ? reachable(group, lowest, buckets.filter((d) => d !== lowest), preferExplicit) : []);
    out.push(...reachable(group, target, others, preferExplicit).filter((v) => !kept.has(v)));
  }
  return out;
}

/**
 * A table of only the values a density bucket's split carries (resources in `pinnedIds` stay
 * whole in the master, and so do the lowest bucket's style values unless `pinStyles` is false, as
 * for standalone APKs); undefined when it would be empty.
 */
export function tableForDensity(table: PbResourceTable, dpi: number, version: Version, pinnedIds: ReadonlySet<number>, pinStyles = true): PbResourceTable | undefined {
  const packages = [];
  for (const p of table.package ?? []) {
    const types = [];
    for (const t of p.type ?? []) {
      if (t.name === 'mipmap') continue; // launcher icons stay in the master
      const entries = [];
      for (const e of t.entry ?? []) {
        const id = makeResId(p.package_id?.id ?? 0, t.type_id?.id ?? 0, e.entry_id?.id ?? 0);
        const values = entryForDensity(e, dpi, version, pinnedIds.has(id), t.name === 'style', pinStyles);
        if (values.length > 0) entries.push({ ...e, config_value: values });
      }
      if (entries.length > 0) types.push({ ...t, entry: entries });
    }
    if (types.length > 0) packages.push({ ...p, type: types });
  }
  return packages.length > 0 ? { ...table, package: packages } : undefined;
}
