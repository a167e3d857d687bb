import { DEX_NAME, KNOWN_ABIS, dexIndex, isReservedRootSegment } from './layout.js';

/** Why an APK entry has no place in the bundle; each maps to a report warning or an info log. */
export type DropReason =
  | 'directory'
  | 'signature'
  | 'source-stamp'
  | 'class-file'
  | 'lib-unrepresentable'
  | 'reserved-root'
  | 'asset-targeting-name';

/** Where one APK entry goes (docs/aab-format.md "Mapping APK entries"). Module paths are relative to `base/`. */
export type EntryRoute =
  | { kind: 'manifest' }
  | { kind: 'resource-table' }
  | { kind: 'dex'; index: number; path: string }
  | { kind: 'res'; path: string }
  | { kind: 'asset'; path: string }
  | { kind: 'native-lib'; abi: string; path: string }
  /** A non-library file of a known ABI directory: an AAB's lib/ holds only libraries, so it becomes an asset. */
  | { kind: 'lib-to-asset'; abi: string; path: string }
  | { kind: 'root'; path: string }
  | { kind: 'drop'; reason: DropReason };

const SIGNATURE_FILE = /^META-INF\/([^/]+\.(SF|RSA|DSA|EC)|SIG-[^/]*|MANIFEST\.MF)$/i;

/** Routes one APK entry by its (normalised) name. `res/` files are decided later, against the table. */
export function routeEntry(name: string, isDirectory = false): EntryRoute {
  if (isDirectory) return { kind: 'drop', reason: 'directory' };
  if (name === 'AndroidManifest.xml') return { kind: 'manifest' };
  if (name === 'resources.arsc') return { kind: 'resource-table' };
  if (name.endsWith('.class')) return { kind: 'drop', reason: 'class-file' };
  if (DEX_NAME.test(name)) {
    const index = dexIndex(name);
    return index === undefined ? { kind: 'drop', reason: 'reserved-root' } : { kind: 'dex', index, path: `dex/${name}` };
  }
  const segments = name.split('/');
  const first = segments[0];
  if (segments.length > 1) {
    if (first === 'res') return { kind: 'res', path: name };
    if (first === 'assets') {
      return segments.slice(1, -1).some((s) => s.includes('#'))
        ? { kind: 'drop', reason: 'asset-targeting-name' }
        : { kind: 'asset', path: name };
    }
    if (first === 'lib') {
      const [, abi, file] = segments;
      if (segments.length !== 3 || !KNOWN_ABIS.has(abi) || file === '') return { kind: 'drop', reason: 'lib-unrepresentable' };
      if (file.endsWith('.so') || file === 'wrap.sh') return { kind: 'native-lib', abi, path: name };
      // Kept where the app can still read it (AssetManager, `lib/<abi>/<name>`); the caller checks for a clash.
      return { kind: 'lib-to-asset', abi, path: `assets/${name}` };
    }
    if (SIGNATURE_FILE.test(name)) return { kind: 'drop', reason: 'signature' };
  }
  if (name === 'stamp-cert-sha256') return { kind: 'drop', reason: 'source-stamp' };
  if (isReservedRootSegment(first)) return { kind: 'drop', reason: 'reserved-root' };
  return { kind: 'root', path: `root/${name}` };
}

/**
 * Keeps the dex files ART would load: classes.dex, classes2.dex ... up to the first gap.
 * Returns the kept indices and the names dropped after a gap.
 */
export function contiguousDex(indices: readonly number[]): { kept: number[]; dropped: number[] } {
  const sorted = [...indices].sort((a, b) => a - b);
  const kept: number[] = [];
  for (const i of sorted) {
    if (i === kept.length + 1) kept.push(i);
    else break;
  }
  return { kept, dropped: sorted.slice(kept.length) };
}

export function dexFileName(index: number): string {
  return index === 1 ? 'classes.dex' : `classes${index}.dex`;
}
