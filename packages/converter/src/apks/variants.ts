/**
 * Before splitting, bundletool (≥ 1.0.0) merges the feature modules that are always installed
 * into the base, and it builds one set of splits per "variant", an SDK range with its own
 * storage rules: from Android 5.0, from 6.0/7.0/9 when native libraries can stay uncompressed,
 * from 10 (or 12) when dex can, from 12L with sparse tables, all cropped to the app's SDK range
 * (docs/apks.md). A device gets the variant with the highest start it reaches.
 */
import { ConverterError } from '../errors.js';
import type { NativeLibrariesMsg } from '../proto/bundle.js';
import type { PbXmlNode } from '../proto/aapt.js';
import type { ZipEntry } from '../zip/index.js';
import { mergeResourceTables } from '../splits/mergeTables.js';
import type { Bundle, BundleModule } from './bundle.js';
import { setFusedModuleNames } from './inject.js';
import { ATTR } from '../bundle/layout.js';
import { attrById, children, stringValue } from '../validate/xml.js';
import { application, effectiveMinSdk, maxSdk } from './manifest.js';
import { mergeManifests } from './manifestMerge.js';
import { versionAtLeast } from './optimizations.js';

const ANDROID_L = 21;
const ANDROID_M = 23;
const ANDROID_N = 24;
const ANDROID_P = 28;
const ANDROID_S_V2 = 32;
const INSTALL_LOCATION = 0x010102b7;
const ISOLATED_SPLITS = 0x0101054b;

function dexIndex(path: string): number {
  const m = /^dex\/classes(\d*)\.dex$/.exec(path);
  return !m ? -1 : m[1] === '' ? 1 : Number(m[1]);
}

/**
 * BundleModuleMerger: the base with every always-installed feature module merged in (manifests
 * merged, tables and targeting united, files by path, dex numbered after the base's). Modules of
 * an app with isolated splits stay apart. Returns the modules split APKs are built from.
 */
export function mergeInstallTimeModules(bundle: Bundle): BundleModule[] {
  const isolated = bundle.base.manifest.element?.attribute?.some((a) => a.resource_id === ISOLATED_SPLITS && a.compiled_item?.prim?.boolean_value === true) === true;
  const mergesInstallTime = versionAtLeast(bundle.version, '1.0.0');
  const features = bundle.modules.filter((m) => m.kind === 'feature');
  const merged = !mergesInstallTime || isolated ? [] : features.filter((m) => m.alwaysInstalled && hasDeliveryElement(m.manifest, bundle));
  const rest = bundle.modules.filter((m) => m.kind !== 'asset-pack' && !merged.includes(m) && m.kind !== 'base');
  if (merged.length === 0) return [bundle.base, ...rest];
  const all = [bundle.base, ...merged];
  const files = new Map<string, ZipEntry>();
  const xml = new Map<string, PbXmlNode>();
  for (const m of all) {
    for (const [path, entry] of m.files) {
      if (path.startsWith('dex/')) continue;
      const prior = files.get(path);
      if (prior && (prior.crc32 !== entry.crc32 || prior.uncompressedSize !== entry.uncompressedSize)) {
        throw new ConverterError('INVALID_AAB', `${path} existe em dois módulos com conteúdos diferentes`);
      }
      if (!prior) files.set(path, entry);
    }
    for (const [path, node] of m.xml) if (!xml.has(path)) xml.set(path, node);
  }
  let n = [...bundle.base.files.keys()].filter((p) => p.startsWith('dex/')).length;
  for (const [path, entry] of bundle.base.files) if (path.startsWith('dex/')) files.set(path, entry);
  for (const m of merged) {
    const dex = [...m.files].filter(([p]) => p.startsWith('dex/')).sort((a, b) => dexIndex(a[0]) - dexIndex(b[0]));
    for (const [, entry] of dex) {
      files.set(n === 0 ? 'dex/classes.dex' : `dex/classes${n + 1}.dex`, entry);
      n++;
    }
  }
  const manifest = structuredClone(mergeManifests(bundle.base.manifest, new Map(merged.map((m) => [m.name, m.manifest])), bundle.version));
  setFusedModuleNames(manifest, all.map((m) => m.name));
  const tables = all.filter((m) => m.table).map((m) => m.table!);
  const native: NativeLibrariesMsg | undefined = all.some((m) => m.native) ? { directory: all.flatMap((m) => m.native?.directory ?? []) } : undefined;
  const assets = all.some((m) => m.assets) ? { directory: all.flatMap((m) => m.assets?.directory ?? []) } : undefined;
  const base: BundleModule = {
    ...bundle.base,
    manifest,
    table: tables.length === 0 ? undefined : tables.length === 1 ? tables[0] : mergeResourceTables(tables, all.filter((m) => m.table).map((m) => m.name)),
    native,
    assets,
    files,
    xml,
  };
  return [base, ...rest];
}

/** bundletool ≥ 1.15.4 merges on isAlwaysInstalled alone; before, a delivery element was needed too. */
function hasDeliveryElement(manifest: PbXmlNode, bundle: Bundle): boolean {
  if (versionAtLeast(bundle.version, '1.15.4')) return true;
  const module = manifest.element?.child?.find((c) => c.element?.name === 'module')?.element;
  return (module?.child ?? []).some((c) => c.element?.name === 'delivery');
}

/** An activity naming its native library (android.app.lib_name), or a libmain.so a NativeActivity loads by default. */
export function mayHaveNativeActivities(module: BundleModule): boolean {
  const named = children(application(module.manifest), 'activity').some((a) => children(a, 'meta-data').some((m) => stringValue(attrById(m, ATTR.name)) === 'android.app.lib_name'));
  const dirs = (module.native?.directory ?? []).map((d) => `${d.path ?? ''}/`);
  return named || [...module.files.keys()].some((p) => p.endsWith('libmain.so') && dirs.some((d) => p.startsWith(d)));
}

/** android:installLocation auto (0) or preferExternal (2) on the base: the app may live on external storage. */
export function installableOnExternalStorage(bundle: Bundle): boolean {
  const prim = bundle.base.manifest.element?.attribute?.find((a) => a.resource_id === INSTALL_LOCATION)?.compiled_item?.prim;
  const location = prim?.int_decimal_value ?? prim?.int_hexadecimal_value;
  return location === 0 || location === 2;
}

/** The lowest SDK level of every variant, sorted. */
export function variantSdks(bundle: Bundle, modules: readonly BundleModule[]): number[] {
  const o = bundle.optimizations;
  const external = installableOnExternalStorage(bundle);
  const dexOptOut = bundle.base.files.has('res/xml/uncompressed_dex_opt_out.xml');
  const sparse = bundle.config.optimizations?.resource_optimizations?.sparse_encoding === 2;
  const starts = new Set<number>();
  for (const m of modules) {
    const own = [ANDROID_L];
    if (o.uncompressNativeLibraries && m.native) own.push(external ? ANDROID_P : mayHaveNativeActivities(m) ? ANDROID_N : ANDROID_M);
    if (o.uncompressDexFiles && !dexOptOut && [...m.files.keys()].some((p) => p.startsWith('dex/'))) own.push(o.uncompressedDexFromSdk);
    if (sparse) own.push(ANDROID_S_V2);
    // Cropped to the module's SDK range: a variant below its minimum starts at the minimum.
    const min = effectiveMinSdk(m.manifest);
    const max = maxSdk(m.manifest) ?? Infinity;
    const sorted = [...new Set(own)].sort((a, b) => a - b);
    sorted.forEach((start, i) => {
      const end = sorted[i + 1] ?? Infinity;
      const lo = Math.max(start, min);
      if (lo < end && lo <= max) starts.add(lo);
    });
  }
  return [...starts].sort((a, b) => a - b);
}

/** The variant a device of `sdk` gets: the highest start it reaches. */
export function variantFor(starts: readonly number[], sdk: number): number | undefined {
  return [...starts].reverse().find((s) => s <= sdk);
}
