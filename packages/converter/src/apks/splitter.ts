/**
 * One module of a bundle cut into split APKs for one variant (an SDK range), as bundletool's
 * ModuleSplitter cuts it (docs/apks.md): resources by screen density (seven buckets) then, what
 * stays, by language; native libraries by ABI, stored uncompressed when the variant and the
 * bundle allow it; dex stored uncompressed from Android 10 (or 12) on; what has no targeting
 * merged into the module's master split, whose manifest learns extractNativeLibs and that the
 * app needs its config splits.
 */
import { ConverterError } from '../errors.js';
import type { PbConfigValue, PbResourceTable, PbXmlNode } from '../proto/aapt.js';
import type { Bundle, BundleModule } from './bundle.js';
import { DENSITY_BUCKETS, tableForDensity } from './density.js';
import { languageOf } from './inject.js';
import { androidAttr, application, getOrCreateChild, manifestElement, ManifestAttr, setAttribute, setMetaData, withBoolean } from './manifest.js';
import type { Dimension } from './optimizations.js';
import { apkPath, type PlannedFile } from './plan.js';
import { installableOnExternalStorage, mayHaveNativeActivities } from './variants.js';
import { makeResId } from '../arsc/values.js';

/** What a split is for (bundletool's ApkTargeting), beyond the variant. */
export interface SplitTargeting {
  abi?: { value: string; alternatives: string[] };
  density?: { value: number; alternatives: number[] };
  language?: string;
}

export interface ModuleSplit {
  module: BundleModule;
  master: boolean;
  targeting: SplitTargeting;
  files: PlannedFile[];
  table?: PbResourceTable;
  /** The module's manifest (the master's, with its mutators applied). */
  manifest: PbXmlNode;
}

/** Master manifest changes bundletool's splitters ask for. */
interface Mutators {
  extractNativeLibs?: boolean;
  splitsRequired?: boolean;
}

export interface SplitterOptions {
  /** The variant's lowest SDK level. */
  variantSdk: number;
  dimensions: ReadonlySet<Dimension>;
  /** Resource ids and names BundleConfig pins to the master split. */
  pinnedIds: ReadonlySet<number>;
  pinnedNames: ReadonlySet<string>;
}

const ANDROID_M = 23;
const ANDROID_N = 24;
const ANDROID_P = 28;

function resourceId(p: { package_id?: { id?: number } }, t: { type_id?: { id?: number } }, e: { entry_id?: { id?: number } }): number {
  return makeResId(p.package_id?.id ?? 0, t.type_id?.id ?? 0, e.entry_id?.id ?? 0);
}

/** Every file path the table references. */
export function referencedFiles(table: PbResourceTable | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of table?.package ?? []) for (const t of p.type ?? []) for (const e of t.entry ?? []) for (const cv of e.config_value ?? []) {
    const path = cv.value?.item?.file?.path;
    if (path) out.add(path);
  }
  return out;
}

/** ResourcesUtils.filterResourceTable: entries kept by `keep` with the values `values` picks; empty types and packages dropped. */
function filterTable(
  table: PbResourceTable,
  keepEntry: (id: number, name: string) => boolean,
  values: (id: number, name: string, list: readonly PbConfigValue[]) => PbConfigValue[],
): PbResourceTable {
  const packages = [];
  for (const p of table.package ?? []) {
    const types = [];
    for (const t of p.type ?? []) {
      const entries = [];
      for (const e of t.entry ?? []) {
        const id = resourceId(p, t, e);
        if (!keepEntry(id, e.name ?? '')) continue;
        const kept = values(id, e.name ?? '', e.config_value ?? []);
        if (kept.length > 0) entries.push({ ...e, config_value: kept });
      }
      if (entries.length > 0) types.push({ ...t, entry: entries });
    }
    if (types.length > 0) packages.push({ ...p, type: types });
  }
  return { ...table, package: packages };
}

const isEmptyTable = (t: PbResourceTable): boolean => (t.package ?? []).length === 0 && !t.overlayable?.length && !t.dynamic_ref_table?.length;

/** bundletool's getAllLanguages, in first-seen order ("" for values with no locale). */
function languagesOf(table: PbResourceTable): string[] {
  const out = new Set<string>();
  for (const p of table.package ?? []) for (const t of p.type ?? []) for (const e of t.entry ?? []) for (const cv of e.config_value ?? []) out.add(languageOf(cv.config?.locale ?? ''));
  return [...out];
}

interface Part {
  targeting: SplitTargeting;
  master: boolean;
  files: PlannedFile[];
  table?: PbResourceTable;
}

function resourceParts(module: BundleModule, bundle: Bundle, o: SplitterOptions, mutators: Mutators): Part[] {
  const resFiles = [...module.files].filter(([p]) => p.startsWith('res/')).map(([modulePath, entry]) => ({ modulePath, path: modulePath, entry }));
  const table = module.table;
  if (!table) return [{ targeting: {}, master: true, files: resFiles }];
  const filesOf = (t: PbResourceTable): PlannedFile[] => {
    const refs = referencedFiles(t);
    return resFiles.filter((f) => refs.has(f.modulePath));
  };
  const parts: Part[] = [];
  let rest = table;
  if (o.dimensions.has('SCREEN_DENSITY') && !isEmptyTable(table)) {
    const claimed = new Set<PbConfigValue>();
    for (const bucket of DENSITY_BUCKETS) {
      const t = tableForDensity(table, bucket.dpi, bundle.version, o.pinnedIds);
      if (!t) continue;
      for (const p of t.package ?? []) for (const ty of p.type ?? []) for (const e of ty.entry ?? []) for (const cv of e.config_value ?? []) claimed.add(cv);
      const others = DENSITY_BUCKETS.filter((b) => b.dpi !== bucket.dpi).map((b) => b.dpi);
      parts.push({ targeting: { density: { value: bucket.dpi, alternatives: others } }, master: false, files: filesOf(t), table: t });
      mutators.splitsRequired = true;
    }
    // The master keeps every value no density split claimed.
    rest = filterTable(table, () => true, (_id, _name, list) => list.filter((cv) => !claimed.has(cv)));
  }
  if (o.dimensions.has('LANGUAGE')) {
    const pinned = (id: number, name: string): boolean => o.pinnedIds.has(id) || o.pinnedNames.has(name);
    const languages = languagesOf(rest);
    const hasOtherFiles = [...module.files.keys()].some((p) => !p.startsWith('res/'));
    let master: PbResourceTable | undefined;
    for (const language of languages) {
      const t =
        language === ''
          ? filterTable(rest, () => true, (id, name, list) => (pinned(id, name) ? [...list] : list.filter((cv) => languageOf(cv.config?.locale ?? '') === '')))
          : filterTable(rest, (id, name) => !pinned(id, name), (_id, _name, list) => list.filter((cv) => languageOf(cv.config?.locale ?? '') === language));
      if (isEmptyTable(t) && language !== '') continue;
      if (language === '') master = t;
      else parts.push({ targeting: { language }, master: false, files: filesOf(t), table: t });
    }
    if (!languages.includes('')) {
      const t = filterTable(rest, (id, name) => pinned(id, name), (_id, _name, list) => [...list]);
      if (hasOtherFiles || !isEmptyTable(t)) master = t;
    }
    if (master) parts.push({ targeting: {}, master: true, files: filesOf(master), table: master });
    return parts;
  }
  parts.push({ targeting: {}, master: true, files: filesOf(rest), table: rest });
  return parts;
}

/**
 * The languages of a module's language splits, in bundletool's order: what a standalone APK
 * built for a device with locales is named after (its shard fuses every language split back).
 */
export function languageSplitLanguages(module: BundleModule, bundle: Bundle, o: SplitterOptions): string[] {
  return resourceParts(module, bundle, o, {}).flatMap((p) => (p.targeting.language ? [p.targeting.language] : []));
}

/** NativeLibrariesCompressionSplitter's rule: may this variant keep native libraries uncompressed? */
function uncompressedLibraries(bundle: Bundle, module: BundleModule, variantSdk: number): boolean {
  if (!bundle.optimizations.uncompressNativeLibraries) return false;
  if (variantSdk >= ANDROID_P) return true;
  const external = installableOnExternalStorage(bundle);
  if (variantSdk >= ANDROID_N) return !external;
  if (variantSdk >= ANDROID_M) return !external && !mayHaveNativeActivities(module);
  return false;
}

const ABI_BY_ALIAS = ['', 'armeabi', 'armeabi-v7a', 'arm64-v8a', 'x86', 'x86_64', 'mips', 'mips64', 'riscv64'];

function nativeParts(bundle: Bundle, module: BundleModule, o: SplitterOptions, mutators: Mutators): Part[] {
  const libFiles: PlannedFile[] = [...module.files].filter(([p]) => p.startsWith('lib/')).map(([modulePath, entry]) => ({ modulePath, path: modulePath, entry }));
  if (!module.native) return libFiles.length > 0 ? [{ targeting: {}, master: true, files: libFiles }] : [];
  const dirs = (module.native.directory ?? []).filter((d) => !d.targeting?.sanitizer);
  const hwasan = new Set((module.native.directory ?? []).filter((d) => d.targeting?.sanitizer).map((d) => d.path ?? ''));
  const uncompressed = uncompressedLibraries(bundle, module, o.variantSdk);
  mutators.extractNativeLibs = !uncompressed;
  // HWASAN libraries go to a split no device is served (it names a sanitizer): left out.
  const files = libFiles
    .filter((f) => !hwasan.has(f.modulePath.split('/').slice(0, 2).join('/')))
    .map((f) => (uncompressed && dirs.some((d) => f.modulePath.startsWith(`${d.path ?? ''}/`)) ? { ...f, forceUncompressed: true } : f));
  if (!o.dimensions.has('ABI')) return [{ targeting: {}, master: true, files }];
  const abis = [...new Set(dirs.map((d) => ABI_BY_ALIAS[d.targeting?.abi?.alias ?? 0] ?? ''))];
  const parts: Part[] = [];
  const claimed = new Set<string>();
  for (const abi of abis) {
    const paths = dirs.filter((d) => ABI_BY_ALIAS[d.targeting?.abi?.alias ?? 0] === abi).map((d) => `${d.path ?? ''}/`);
    const mine = files.filter((f) => paths.some((p) => f.modulePath.startsWith(p)));
    mine.forEach((f) => claimed.add(f.modulePath));
    parts.push({ targeting: { abi: { value: abi, alternatives: abis.filter((a) => a !== abi) } }, master: false, files: mine });
    mutators.splitsRequired = true;
  }
  const left = files.filter((f) => !claimed.has(f.modulePath));
  if (left.length > 0) parts.push({ targeting: {}, master: true, files: left });
  return parts;
}

function targetingKey(t: SplitTargeting): string {
  return JSON.stringify([t.abi?.value ?? '', t.density?.value ?? 0, t.language ?? '']);
}

/** The module's splits for one variant, with what the master's manifest must say. */
export function splitModule(bundle: Bundle, module: BundleModule, o: SplitterOptions): ModuleSplit[] {
  if ((module.assets?.directory ?? []).some((d) => d.targeting && Object.keys(d.targeting).length > 0)) {
    throw new ConverterError('UNSUPPORTED_AAB', `módulo "${module.name}": assets segmentados por idioma, textura, nível, grupo ou país`);
  }
  const mutators: Mutators = {};
  const parts: Part[] = [...resourceParts(module, bundle, o, mutators), ...nativeParts(bundle, module, o, mutators)];
  const filesUnder = (dir: string): PlannedFile[] => [...module.files].filter(([p]) => p.startsWith(dir)).map(([modulePath, entry]) => ({ modulePath, path: apkPath(modulePath), entry }));
  parts.push({ targeting: {}, master: true, files: filesUnder('assets/') });
  const dexUncompressed = bundle.optimizations.uncompressDexFiles && !module.files.has('res/xml/uncompressed_dex_opt_out.xml') && o.variantSdk >= bundle.optimizations.uncompressedDexFromSdk;
  parts.push({ targeting: {}, master: true, files: filesUnder('dex/').map((f) => (dexUncompressed && o.variantSdk >= ANDROID_P ? { ...f, forceUncompressed: true } : f)) });
  parts.push({ targeting: {}, master: true, files: filesUnder('root/') });

  // SameTargetingMerger: one split per targeting, in order of first appearance.
  const merged = new Map<string, ModuleSplit>();
  for (const part of parts) {
    const key = targetingKey(part.targeting);
    const prior = merged.get(key);
    if (prior) {
      prior.files.push(...part.files);
      if (part.table) prior.table = part.table;
    } else {
      merged.set(key, { module, master: part.master, targeting: part.targeting, files: [...part.files], table: part.table, manifest: module.manifest });
    }
  }
  if (![...merged.values()].some((s) => s.master)) merged.set(targetingKey({}), { module, master: true, targeting: {}, files: [], manifest: module.manifest });
  return [...merged.values()].map((s) => (s.master ? { ...s, manifest: applyMutators(s.manifest, mutators) } : s));
}


/** The master's manifest with the splitters' changes (extractNativeLibs, splits required). */
function applyMutators(manifest: PbXmlNode, m: Mutators): PbXmlNode {
  if (m.extractNativeLibs === undefined && !m.splitsRequired) return manifest;
  const out = structuredClone(manifest);
  if (m.extractNativeLibs !== undefined) {
    const app = application(out) ?? getOrCreateChild(manifestElement(out), 'application');
    setAttribute(app, withBoolean(androidAttr('extractNativeLibs', ManifestAttr.extractNativeLibs), m.extractNativeLibs));
  }
  if (m.splitsRequired) setMetaData(out, 'com.android.vending.splits.required', withBoolean(androidAttr('value', ManifestAttr.value), true));
  return out;
}
