/**
 * The universal APK (bundletool's `--mode=universal`): one standalone APK fused from the base,
 * every feature module marked `<dist:fusing dist:include="true">` and every install-time asset
 * pack, with no split dimension applied (docs/apks.md): files of all modules by path (the same
 * path with different bytes in two modules is an invalid bundle), the resource tables merged by
 * id, the manifests merged, feature modules' dex files numbered after the base's, HWASAN libraries
 * left out, then what bundletool injects (profiles, fused module names, splits.xml).
 */
import { DIST_NS } from '../bundle/layout.js';
import { ConverterError, isConverterError } from '../errors.js';
import type { PbResourceTable, PbXmlNode } from '../proto/aapt.js';
import { mergeResourceTables } from '../splits/mergeTables.js';
import type { Bundle, BundleModule } from './bundle.js';
import { injectSplitsXml, metadataFiles, setFusedModuleNames, tableLanguages } from './inject.js';
import { cloneManifest, effectiveMinSdk, packageName } from './manifest.js';
import { mergeManifests } from './manifestMerge.js';
import { DENSITY_BUCKETS, tableForDensity } from './density.js';
import { apkPath, type ApkPlan, type PlannedFile } from './plan.js';

const HWASAN_DIR = 'lib/arm64-v8a-hwasan/';
/** Split dimensions whose targeted assets bundletool strips to one value in standalone APKs. */
const SUFFIX_STRIPPING_DIMENSIONS = new Set([4, 6, 7, 9]);

/** bundletool's modulesToFuse(getModulesForStandaloneApks): feature modules, then install-time asset packs, fused ones only. */
export function modulesToFuse(bundle: Bundle): BundleModule[] {
  const features = bundle.modules.filter((m) => m.kind !== 'asset-pack');
  const packs = bundle.modules.filter((m) => m.kind === 'asset-pack' && m.delivery === 'install-time');
  return [...features, ...packs].filter((m) => {
    if (m.kind === 'base') return true;
    if (m.fusing === undefined) {
      throw new ConverterError('INVALID_AAB', `módulo "${m.name}": sem <dist:fusing> em <dist:module>, não se sabe se entra no APK universal`);
    }
    return m.fusing;
  });
}

function dexIndex(path: string): number {
  const m = /^dex\/classes(\d*)\.dex$/.exec(path);
  if (!m) return -1;
  return m[1] === '' ? 1 : Number(m[1]);
}

/** ModuleSplitsToShardMerger's dex handling: base names kept, other modules' dex numbered after them. */
function fusedDexFiles(bundle: Bundle, byModule: ReadonlyMap<string, PlannedFile[]>, manifest: PbXmlNode): PlannedFile[] {
  const all = [...byModule.values()].flat();
  const featureModules = bundle.modules.filter((m) => m.kind !== 'asset-pack').length;
  if (all.length <= 1 || featureModules <= 1) return all;
  const strategy = bundle.config.optimizations?.standalone_config?.dex_merging_strategy ?? 0;
  if (strategy !== 1 && effectiveMinSdk(manifest) < 21) {
    throw new ConverterError('UNSUPPORTED_AAB', 'APK universal de app com minSdk < 21 e código em módulos de recurso: seria preciso fundir os dex com o D8');
  }
  const base = byModule.get('base') ?? [];
  const out = [...base];
  let n = base.length;
  for (const [module, files] of byModule) {
    if (module === 'base') continue;
    for (const f of [...files].sort((a, b) => dexIndex(a.modulePath) - dexIndex(b.modulePath))) {
      const name = n === 0 ? 'classes.dex' : `classes${n + 1}.dex`;
      out.push({ ...f, modulePath: `dex/${name}`, path: name });
      n++;
    }
  }
  return out;
}

function checkAssetTargeting(bundle: Bundle, modules: readonly BundleModule[]): void {
  const stripping = (bundle.config.optimizations?.splits_config?.split_dimension ?? []).some((d) => !d.negate && SUFFIX_STRIPPING_DIMENSIONS.has(d.value ?? 0));
  if (!stripping) return;
  const targeted = modules.some((m) => (m.assets?.directory ?? []).some((d) => d.targeting && Object.keys(d.targeting).length > 0));
  if (targeted) throw new ConverterError('UNSUPPORTED_AAB', 'assets segmentados por formato de textura, nível ou grupo de dispositivo, ou país');
}

/**
 * One standalone APK's cut of the fused modules (bundletool's shards): the native libraries of
 * one ABI, the density-dependent values one density bucket keeps. The universal APK has none.
 */
export interface Shard {
  abi?: string;
  dpi?: number;
}

/** The plan of the universal APK, or of a standalone APK for one shard. */
export function planUniversal(bundle: Bundle, shard: Shard = {}): ApkPlan & { modules: string[] } {
  const modules = modulesToFuse(bundle);
  checkAssetTargeting(bundle, modules);
  const files = new Map<string, PlannedFile & { module: string }>();
  const dexByModule = new Map<string, PlannedFile[]>();
  const xml = new Map<string, PbXmlNode>();
  const tables: PbResourceTable[] = [];
  const manifests = new Map<string, PbXmlNode>();
  for (const m of modules) {
    if (m.kind !== 'base') manifests.set(m.name, m.manifest);
    if (m.table) tables.push(shard.dpi === undefined ? m.table : tableForShard(bundle, m.table, shard.dpi));
    const otherAbis = shard.abi === undefined ? [] : abiDirectories(m).filter((d) => d.abi !== shard.abi).map((d) => `${d.path}/`);
    for (const [modulePath, entry] of m.files) {
      if (modulePath.startsWith(HWASAN_DIR) || !/^(res|assets|lib|dex|root)\//.test(modulePath)) continue;
      if (otherAbis.some((d) => modulePath.startsWith(d))) continue;
      const file: PlannedFile = { modulePath, path: apkPath(modulePath), entry };
      if (modulePath.startsWith('dex/')) {
        const list = dexByModule.get(m.name) ?? [];
        list.push(file);
        dexByModule.set(m.name, list);
        continue;
      }
      const prior = files.get(modulePath);
      if (prior && (prior.entry?.crc32 !== entry.crc32 || prior.entry?.uncompressedSize !== entry.uncompressedSize)) {
        throw new ConverterError('INVALID_AAB', `os módulos "${prior.module}" e "${m.name}" trazem ${modulePath} com conteúdos diferentes`);
      }
      if (!prior) files.set(modulePath, { ...file, module: m.name });
      const node = m.xml.get(modulePath);
      if (node && !xml.has(modulePath)) xml.set(modulePath, node);
    }
  }

  let table: PbResourceTable | undefined;
  try {
    table = tables.length === 0 ? undefined : tables.length === 1 ? tables[0] : mergeResourceTables(tables, modules.filter((m) => m.table).map((m) => m.name));
  } catch (e) {
    if (isConverterError(e) && e.code === 'SPLIT_CONFLICT') throw new ConverterError('INVALID_AAB', `tabelas de recursos dos módulos não se fundem: ${e.detail ?? ''}`, { cause: e });
    throw e;
  }
  let manifest = cloneManifest(mergeManifests(bundle.base.manifest, manifests, bundle.version));
  const planned: PlannedFile[] = [...files.values()].map(({ module: _module, ...f }) => f);
  planned.push(...fusedDexFiles(bundle, dexByModule, manifest));
  setFusedModuleNames(manifest, modules.map((m) => m.name));

  const dexMerging = bundle.config.optimizations?.standalone_config?.dex_merging_strategy !== 1 && effectiveMinSdk(bundle.base.manifest) < 21 && bundle.modules.filter((m) => m.kind !== 'asset-pack').length > 1;
  planned.push(...metadataFiles(bundle.metadata, !dexMerging));

  if (table) {
    const languages = tableLanguages(table);
    // bundletool's table of (module, language) has no row for a module without languages.
    const mapping = new Map(languages.size > 0 ? [['', new Map([...languages].map((l) => [l, '']))]] : []);
    const taken = new Set(planned.map((f) => f.modulePath));
    const injected = injectSplitsXml(table, manifest, packageName(bundle.base.manifest), mapping, (p) => taken.has(p));
    table = injected.table;
    manifest = injected.manifest;
    xml.set(injected.path, injected.xml);
  }
  return { name: 'universal', manifest, table, files: planned, xml, modules: modules.map((m) => m.name) };
}

const ABI_BY_ALIAS = ['', 'armeabi', 'armeabi-v7a', 'arm64-v8a', 'x86', 'x86_64', 'mips', 'mips64', 'riscv64'];

/** The module's native directories with the ABI each targets (HWASAN ones aside). */
export function abiDirectories(m: BundleModule): { path: string; abi: string }[] {
  return (m.native?.directory ?? []).filter((d) => !d.targeting?.sanitizer).map((d) => ({ path: d.path ?? '', abi: ABI_BY_ALIAS[d.targeting?.abi?.alias ?? 0] ?? '' }));
}

/** A standalone shard's table: the values no density split takes, and those the shard's bucket takes. */
function tableForShard(bundle: Bundle, table: PbResourceTable, dpi: number): PbResourceTable {
  const claimed = new Set<object>();
  const mine = new Set<object>();
  for (const bucket of DENSITY_BUCKETS) {
    const t = tableForDensity(table, bucket.dpi, bundle.version, new Set(), false);
    for (const p of t?.package ?? []) for (const ty of p.type ?? []) for (const e of ty.entry ?? []) for (const cv of e.config_value ?? []) (bucket.dpi === dpi ? mine : claimed).add(cv);
  }
  return {
    ...table,
    package: (table.package ?? []).map((p) => ({
      ...p,
      type: (p.type ?? []).map((t) => ({ ...t, entry: (t.entry ?? []).map((e) => ({ ...e, config_value: (e.config_value ?? []).filter((cv) => mine.has(cv) || !claimed.has(cv)) })) })),
    })),
  };
}

/** Whether the module declares `<dist:module>` (a feature module's manifest must; the base's may). */
export function hasDistModule(manifest: PbXmlNode): boolean {
  return (manifest.element?.child ?? []).some((c) => c.element?.name === 'module' && c.element.namespace_uri === DIST_NS);
}
