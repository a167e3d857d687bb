/** Names and path rules of the AAB module layout (docs/aab-format.md "Module layout"), shared by mapping and validators. */

export const BASE_MODULE = 'base';
export const BUNDLE_CONFIG = 'BundleConfig.pb';

export const MANIFEST_PATH = 'manifest/AndroidManifest.xml';
export const RESOURCES_PB = 'resources.pb';
export const ASSETS_PB = 'assets.pb';
export const NATIVE_PB = 'native.pb';

/** Files a module may hold outside its directories. */
export const MODULE_SPECIAL_FILES: ReadonlySet<string> = new Set([
  RESOURCES_PB,
  ASSETS_PB,
  NATIVE_PB,
  'apex.pb',
  'runtime_enabled_sdk_config.pb',
]);

export const MODULE_DIRECTORIES: ReadonlySet<string> = new Set(['assets', 'dex', 'lib', 'manifest', 'res', 'root', 'apex']);

/** Top-level directories of the bundle that are not modules. */
export const NON_MODULE_DIRECTORIES: ReadonlySet<string> = new Set(['META-INF', 'BUNDLE-METADATA']);

export const MODULE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;

export const KNOWN_ABIS: ReadonlySet<string> = new Set([
  'armeabi',
  'armeabi-v7a',
  'arm64-v8a',
  'x86',
  'x86_64',
  'mips',
  'mips64',
  'riscv64',
  'arm64-v8a-hwasan',
]);

/** `classes.dex`, `classes2.dex` ...: the only dex names a module may hold. */
export const DEX_NAME = /^classes[0-9]*\.dex$/;

/** First segments under root/ that would collide with what bundletool generates. */
export function isReservedRootSegment(segment: string): boolean {
  return ['lib', 'res', 'AndroidManifest.xml', 'resources.arsc', 'resources.pb'].includes(segment) || DEX_NAME.test(segment);
}

/** Files bundletool reserves for archived apps (ArchiveEntriesValidator). */
export const ARCHIVE_RESERVED_PATHS: ReadonlySet<string> = new Set([
  'res/drawable/com_android_vending_archive_icon_opacity_layer.xml',
  'res/drawable/com_android_vending_archive_icon_cloud_symbol.xml',
  'res/drawable/com_android_vending_archive_application_icon.xml',
  'res/drawable/com_android_vending_archive_application_round_icon.xml',
  'res/layout/com_android_vending_archive_splash_screen_layout.xml',
]);

/** Dex index: classes.dex → 1, classesN.dex → N; undefined for names ART never loads (classes1.dex, classes02.dex). */
export function dexIndex(name: string): number | undefined {
  if (name === 'classes.dex') return 1;
  const m = /^classes([2-9][0-9]*|[1-9][0-9]+)\.dex$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Android framework attribute ids bundletool reads from the manifest. */
export const ATTR = {
  hasCode: 0x0101000c,
  debuggable: 0x0101000f,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  targetSdkVersion: 0x01010270,
  maxSdkVersion: 0x01010271,
  extractNativeLibs: 0x010104ea,
  targetSandboxVersion: 0x0101054c,
  name: 0x01010003,
} as const;

export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
export const DIST_NS = 'http://schemas.android.com/apk/distribution';
