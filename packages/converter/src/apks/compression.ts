/**
 * How bundletool decides, entry by entry, whether an APK stores or deflates it (docs/apks.md):
 * stored when forced (resources.arsc, baseline profiles, a BundleConfig uncompressed glob on the
 * APK path — never the manifest —, a native library when the manifest says
 * extractNativeLibs="false", common media extensions for bundles older than 0.7.3); otherwise
 * deflated (level 9 for resources and the manifest, 6 for the rest) unless that saves too little:
 * under 10% for res/ files, nothing at all for the others.
 */
import type { PathMatchers } from './glob.js';
import { versionAtLeast, type Version } from './optimizations.js';

const NATIVE_LIBRARY = /^lib\/[^/]+\/[^/]+\.so$/;
const NO_COMPRESSION_EXTENSIONS = new Set([
  '3g2', '3gp', '3gpp', '3gpp2', 'aac', 'amr', 'awb', 'gif', 'imy', 'jet', 'jpeg', 'jpg', 'm4a', 'm4v', 'mid', 'midi', 'mkv', 'mp2',
  'mp3', 'mp4', 'mpeg', 'mpg', 'ogg', 'png', 'rtttl', 'smf', 'wav', 'webm', 'wma', 'wmv', 'xmf',
]);

export const MANIFEST_MODULE_PATH = 'manifest/AndroidManifest.xml';

export interface CompressionRules {
  /** Stored whatever the savings. */
  forcedUncompressed(modulePath: string, path: string, forced?: boolean): boolean;
  /** zlib level bundletool deflates the entry with. */
  level(path: string): 6 | 9;
  /** Whether deflating to `compressed` bytes pays for an entry of `uncompressed` bytes. */
  worthCompressing(modulePath: string, compressed: number, uncompressed: number): boolean;
}

/** Resources (res/, the table, the manifest) are deflated harder: bundletool's aapt2 step packs them apart. */
export function isResourceEntry(path: string): boolean {
  return path.startsWith('res/') || path === 'resources.arsc' || path === 'resources.pb' || path === 'AndroidManifest.xml';
}

export function compressionRules(matchers: PathMatchers, version: Version, uncompressNativeLibraries: boolean): CompressionRules {
  const oldDefaults = !versionAtLeast(version, '0.7.3');
  return {
    forcedUncompressed(modulePath, path, forced) {
      if (forced || path === 'resources.arsc') return true;
      if (modulePath === MANIFEST_MODULE_PATH) return false;
      if (uncompressNativeLibraries && NATIVE_LIBRARY.test(modulePath)) return true;
      if (matchers.matches(path)) return true;
      if (oldDefaults) {
        const dot = path.lastIndexOf('.');
        const slash = path.lastIndexOf('/');
        if (dot > slash && NO_COMPRESSION_EXTENSIONS.has(path.slice(dot + 1))) return true;
      }
      return false;
    },
    level(path) {
      return isResourceEntry(path) ? 9 : 6;
    },
    worthCompressing(modulePath, compressed, uncompressed) {
      if (modulePath.startsWith('res/')) return !(uncompressed === 0 || compressed + Math.floor(compressed / 10) > uncompressed);
      return compressed < uncompressed;
    },
  };
}

/**
 * Whether a compressed size measured some other way (the bundle's own deflating) settles the
 * question within a margin; undefined when it is too close to call and the entry must be deflated
 * at bundletool's level to decide.
 */
export function clearVerdict(rules: CompressionRules, modulePath: string, compressed: number, uncompressed: number): boolean | undefined {
  // 5% and a few bytes either way: what another deflater may find more or less in the same data.
  const optimistic = rules.worthCompressing(modulePath, Math.max(0, Math.floor(compressed * 0.95) - 8), uncompressed);
  const pessimistic = rules.worthCompressing(modulePath, Math.ceil(compressed * 1.05) + 8, uncompressed);
  return optimistic === pessimistic ? optimistic : undefined;
}

const SLASH = 0x2f;

/**
 * bundletool's ZipPath order: segment by segment, each compared as Java compares strings (UTF-16
 * units), a path before the longer ones it begins. Read unit by unit without splitting (sorting
 * an APK's entries split each path ~20 times): where the two first differ, a segment that ends
 * there (a '/') is a prefix of the other one, so it sorts first; otherwise the units decide.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca === SLASH) return -1;
    if (cb === SLASH) return 1;
    return ca - cb;
  }
  return a.length - b.length;
}
