/**
 * What bundletool does to the APKs of a bundle depends on the bundletool version that built the
 * bundle (BundleConfig's `bundletool.version`): each release brought new defaults, which the
 * BundleConfig's optimizations then override. Mirrored here as docs/apks.md describes.
 */
import { ConverterError } from '../errors.js';
import { SplitDimensionValue, type BundleConfigMsg } from '../proto/bundle.js';

export interface Version {
  major: number;
  minor: number;
  patch: number;
  qualifier?: string;
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/;

export function parseVersion(text: string): Version {
  const m = VERSION.exec(text);
  if (!m) throw new ConverterError('INVALID_AAB', `BundleConfig.pb: versão do bundletool inválida "${text.slice(0, 40)}"`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), qualifier: m[4] };
}

/** bundletool's order: numbers, then "dev" first, other qualifiers by text, no qualifier last. */
export function compareVersions(a: Version, b: Version): number {
  const d = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (d !== 0) return d;
  const qa = a.qualifier === 'dev' ? '' : a.qualifier;
  const qb = b.qualifier === 'dev' ? '' : b.qualifier;
  if (qa === qb) return 0;
  if (qa === undefined) return 1;
  if (qb === undefined) return -1;
  return qa < qb ? -1 : 1;
}

export function versionAtLeast(v: Version, text: string): boolean {
  return compareVersions(v, parseVersion(text)) >= 0;
}

export type Dimension = 'ABI' | 'SCREEN_DENSITY' | 'LANGUAGE' | 'TEXTURE_COMPRESSION_FORMAT' | 'DEVICE_TIER' | 'COUNTRY_SET' | 'DEVICE_GROUP';

const DIMENSION_BY_VALUE: Readonly<Record<number, Dimension>> = {
  [SplitDimensionValue.ABI]: 'ABI',
  [SplitDimensionValue.SCREEN_DENSITY]: 'SCREEN_DENSITY',
  [SplitDimensionValue.LANGUAGE]: 'LANGUAGE',
  4: 'TEXTURE_COMPRESSION_FORMAT',
  6: 'DEVICE_TIER',
  7: 'COUNTRY_SET',
  9: 'DEVICE_GROUP',
};

export interface ApkOptimizations {
  splitDimensions: ReadonlySet<Dimension>;
  standaloneDimensions: ReadonlySet<Dimension>;
  uncompressNativeLibraries: boolean;
  /** Alignment of uncompressed native libraries, in bytes. */
  nativeLibraryAlignment: number;
  uncompressDexFiles: boolean;
  /** The SDK from which dex files are stored uncompressed (29 by default, 31 for older bundles). */
  uncompressedDexFromSdk: number;
}

interface Defaults {
  since: string;
  split: Dimension[];
  uncompressNative: boolean;
  alignment16k: boolean;
  uncompressDex: boolean;
  dexFromSdk: number;
}

const TCF: Dimension = 'TEXTURE_COMPRESSION_FORMAT';
/** bundletool's defaults by the version they appeared in (ApkOptimizations). */
const DEFAULTS: readonly Defaults[] = [
  { since: '0.0.0-dev', split: ['ABI', 'SCREEN_DENSITY', 'LANGUAGE'], uncompressNative: false, alignment16k: false, uncompressDex: false, dexFromSdk: 29 },
  { since: '0.6.0', split: ['ABI', 'SCREEN_DENSITY', 'LANGUAGE'], uncompressNative: true, alignment16k: false, uncompressDex: false, dexFromSdk: 29 },
  { since: '0.10.2', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE'], uncompressNative: true, alignment16k: false, uncompressDex: false, dexFromSdk: 29 },
  { since: '1.11.3', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE'], uncompressNative: true, alignment16k: false, uncompressDex: true, dexFromSdk: 31 },
  { since: '1.13.2', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE', 'DEVICE_TIER'], uncompressNative: true, alignment16k: false, uncompressDex: true, dexFromSdk: 31 },
  { since: '1.15.7', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE', 'DEVICE_TIER', 'COUNTRY_SET'], uncompressNative: true, alignment16k: false, uncompressDex: true, dexFromSdk: 31 },
  { since: '1.16.0', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE', 'DEVICE_TIER', 'COUNTRY_SET'], uncompressNative: true, alignment16k: false, uncompressDex: true, dexFromSdk: 29 },
  { since: '1.17.0', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE', 'DEVICE_TIER', 'COUNTRY_SET'], uncompressNative: true, alignment16k: true, uncompressDex: true, dexFromSdk: 29 },
  { since: '1.18.0', split: ['ABI', 'SCREEN_DENSITY', TCF, 'LANGUAGE', 'DEVICE_TIER', 'DEVICE_GROUP', 'COUNTRY_SET'], uncompressNative: true, alignment16k: true, uncompressDex: true, dexFromSdk: 29 },
];

const PAGE_ALIGNMENT_BYTES: Readonly<Record<number, number>> = { 1: 4096, 2: 16384, 3: 65536 };

function applyDimensions(base: readonly Dimension[], requested: readonly { value?: number; negate?: boolean }[]): Set<Dimension> {
  const out = new Set(base);
  for (const d of requested) {
    const dim = DIMENSION_BY_VALUE[d.value ?? 0];
    if (!dim) continue;
    if (d.negate) out.delete(dim);
    else out.add(dim);
  }
  return out;
}

/** OptimizationsMerger.mergeWithDefaults: the version's defaults, overridden by the BundleConfig. */
export function mergeOptimizations(config: BundleConfigMsg, version: Version): ApkOptimizations {
  const d = [...DEFAULTS].reverse().find((x) => versionAtLeast(version, x.since)) ?? DEFAULTS[0];
  const o = config.optimizations ?? {};
  const requestedSplits = o.splits_config?.split_dimension ?? [];
  const standalone = o.standalone_config;
  const alignment = o.uncompress_native_libraries?.alignment ?? 0;
  return {
    splitDimensions: applyDimensions(d.split, requestedSplits),
    standaloneDimensions: applyDimensions(['ABI', 'SCREEN_DENSITY'], standalone ? (standalone.split_dimension ?? []) : requestedSplits),
    uncompressNativeLibraries: o.uncompress_native_libraries ? o.uncompress_native_libraries.enabled === true : d.uncompressNative,
    nativeLibraryAlignment: PAGE_ALIGNMENT_BYTES[alignment] ?? (d.alignment16k ? 16384 : 4096),
    uncompressDexFiles: o.uncompress_dex_files ? o.uncompress_dex_files.enabled === true : d.uncompressDex,
    uncompressedDexFromSdk: o.uncompress_dex_files ? (o.uncompress_dex_files.uncompressed_dex_target_sdk === 1 ? 31 : 29) : d.dexFromSdk,
  };
}
