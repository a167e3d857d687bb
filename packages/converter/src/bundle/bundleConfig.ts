import { SplitDimensionValue, type BundleConfigMsg, type SplitDimensionMsg } from '../proto/bundle.js';

/** A real bundletool release; its defaults (16K-aligned uncompressed .so, uncompressed dex on Q+) apply. */
export const BUNDLETOOL_VERSION = '1.18.1';

export interface SplitOptions {
  abi?: boolean;
  density?: boolean;
  language?: boolean;
}

export interface CompressionFacts {
  /** APK paths of kept entries that were STORED (need to stay uncompressed in Play's APKs). */
  storedPaths: readonly string[];
  /** Native libraries exist and all were stored uncompressed in the APK. */
  nativeLibs: 'none' | 'all-stored' | 'some-deflated';
  /** The manifest says android:extractNativeLibs="true". */
  extractNativeLibs?: boolean;
  dex: 'none' | 'all-stored' | 'some-deflated';
}

const GLOB_SPECIAL = /[*?[\]{},\\]/g;

/**
 * A glob matching exactly `path` under bundletool's PathMatcher syntax, or undefined when the
 * path holds a backslash (escaping it would need "\\\\", which bundletool forbids) or a newline.
 */
export function literalGlob(path: string): string | undefined {
  if (path.includes('\\') || path.includes('\n')) return undefined;
  return path.replace(GLOB_SPECIAL, (c) => `\\${c}`);
}

/**
 * Paths the generated APKs treat by their own rules, never by glob (docs/aab-format.md "What we set in BundleConfig"). Stored
 * dex files are globbed on purpose: uncompress_dex_files only covers the Android 10+ variant, and
 * the APK had them stored for every device (universal and standalone APKs included).
 */
function handledElsewhere(path: string): boolean {
  return path.endsWith('.so') || path === 'resources.arsc' || path === 'AndroidManifest.xml';
}

export interface BundleConfigResult {
  config: BundleConfigMsg;
  /** Stored paths that could not be expressed as a glob. */
  unglobbable: string[];
}

/** BundleConfig.pb per docs/aab-format.md "What we set in BundleConfig": what was stored uncompressed in the APK stays so in Play's APKs. */
export function buildBundleConfig(facts: CompressionFacts, splits: SplitOptions = {}): BundleConfigResult {
  const globs: string[] = [];
  const unglobbable: string[] = [];
  for (const p of [...facts.storedPaths].sort()) {
    if (handledElsewhere(p)) continue;
    const g = literalGlob(p);
    if (g === undefined) unglobbable.push(p);
    else globs.push(g);
  }
  const dims: SplitDimensionMsg[] = [
    { value: SplitDimensionValue.ABI, negate: splits.abi === false },
    { value: SplitDimensionValue.SCREEN_DENSITY, negate: splits.density === false },
    { value: SplitDimensionValue.LANGUAGE, negate: splits.language === false },
  ];
  const optimizations: NonNullable<BundleConfigMsg['optimizations']> = { splits_config: { split_dimension: dims } };
  // Libraries the APK deflated (or asked to extract) were extracted at install time; the app may
  // rely on that (executables, System.load of a path), so Play must keep extracting them.
  // Stored libraries are left to the default (uncompressed, page-aligned by bundletool).
  if (facts.extractNativeLibs === true || facts.nativeLibs === 'some-deflated') {
    optimizations.uncompress_native_libraries = { enabled: false };
  }
  // Stored dex says the app was built for uncompressed dex; deflated dex leaves bundletool's
  // default (uncompressed on Android 10+), which changes nothing the app can observe.
  if (facts.dex === 'all-stored') optimizations.uncompress_dex_files = { enabled: true };
  const config: BundleConfigMsg = { bundletool: { version: BUNDLETOOL_VERSION }, optimizations };
  if (globs.length > 0) config.compression = { uncompressed_glob: globs };
  return { config, unglobbable };
}
