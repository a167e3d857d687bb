/**
 * bundletool's `android.bundle` schema (bundleSchema.ts) and the plain-object shapes the
 * converter builds. Parsed by protobufjs (snake_case names kept) on first use of `BundlePb`
 * (decoding, validating); a conversion encodes from the descriptors kept as source (descriptors.ts).
 */
import type protobuf from 'protobufjs';
import { BUNDLE_PROTO } from './bundleSchema.js';
import { fastDecode } from './fastDecode.js';
import { encodeChecked } from './fastEncode.js';
import { lazySchema } from './lazySchema.js';

export { BUNDLE_PROTO };

/** The messages a bundle's config files hold, by short name. */
export type BundleMessage = 'BundleConfig' | 'Assets' | 'NativeLibraries';

const schema = lazySchema<BundleMessage>(BUNDLE_PROTO, 'android.bundle', ['BundleConfig', 'Assets', 'NativeLibraries']);

/** The parsed schema (parsed on the first call). */
export const bundleRoot = (): protobuf.Root => schema.root();

/** protobufjs's types of the schema, looked up on first use. */
export const BundlePb = schema.types;

/** SplitDimension.Value numbers. */
export const SplitDimensionValue = { ABI: 1, SCREEN_DENSITY: 2, LANGUAGE: 3 } as const;

/** Abi.AbiAlias number for each ABI directory name under lib/. */
export const ABI_ALIASES: Readonly<Record<string, number>> = {
  armeabi: 1,
  'armeabi-v7a': 2,
  'arm64-v8a': 3,
  x86: 4,
  x86_64: 5,
  mips: 6,
  mips64: 7,
  riscv64: 8,
  'arm64-v8a-hwasan': 3,
};

export const HWASAN_ABI = 'arm64-v8a-hwasan';

// Plain shapes of the messages this engine writes and reads (snake_case, as on the wire).
export interface SplitDimensionMsg {
  value?: number;
  negate?: boolean;
  suffix_stripping?: { enabled?: boolean; default_suffix?: string };
}
export interface BundleConfigMsg {
  bundletool?: { version?: string };
  optimizations?: {
    splits_config?: { split_dimension?: SplitDimensionMsg[] };
    uncompress_native_libraries?: { enabled?: boolean; alignment?: number };
    uncompress_dex_files?: { enabled?: boolean; uncompressed_dex_target_sdk?: number };
    standalone_config?: { split_dimension?: SplitDimensionMsg[]; strip_64_bit_libraries?: boolean; dex_merging_strategy?: number; feature_modules_mode?: number };
    resource_optimizations?: {
      sparse_encoding?: number;
      collapsed_resource_names?: {
        collapse_resource_names?: boolean;
        no_collapse_resources?: { type?: string; name?: string }[];
        deduplicate_resource_entries?: boolean;
        no_collapse_resource_types?: string[];
      };
    };
  };
  compression?: { uncompressed_glob?: string[]; install_time_asset_module_default_compression?: number; apk_compression_algorithm?: number };
  master_resources?: { resource_ids?: number[]; resource_names?: string[] };
  apex_config?: Record<string, unknown>;
  /** REGULAR 0, APEX 1, ASSET_ONLY 2. */
  type?: number;
  locales?: { inject_locale_config?: boolean };
}
export interface TargetedDirectoryMsg<T> {
  path?: string;
  targeting?: T;
}
export interface AssetsMsg {
  directory?: TargetedDirectoryMsg<Record<string, unknown>>[];
}
export interface NativeLibrariesMsg {
  directory?: TargetedDirectoryMsg<{ abi?: { alias?: number }; sanitizer?: { alias?: number } }>[];
}

/**
 * The message's bytes, as protobufjs's `encode(fromObject(value))` gives them for the plain shapes
 * above (checked against it with AABIFY_CHECK_ENCODE=1); no verify/fromObject code generation at
 * run time (~15 ms of a small conversion).
 */
export function encodeMessage(name: BundleMessage, value: object): Uint8Array {
  return encodeChecked(schema.ref(name), value);
}

/**
 * Decodes into plain objects as protobufjs's `toObject(decode(bytes), { enums: Number, longs:
 * Number, defaults: false })` gives them (fields absent on the wire omitted, empty repeated fields
 * too), from the descriptors: reading a bundle never parses the schema (loading and parsing it
 * with protobufjs was ~0.1 s of building APKs from a bundle).
 */
export function decodeMessage<T>(name: BundleMessage, bytes: Uint8Array): T {
  return withoutEmptyLists(fastDecode(`android.bundle.${name}`, bytes)) as T;
}

function isMessage(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** Drops the empty arrays fastDecode gives every repeated field, in `m` and its sub-messages. */
function withoutEmptyLists(m: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(m)) {
    const v = m[key];
    if (Array.isArray(v)) {
      if (v.length === 0) delete m[key];
      else for (const item of v) if (isMessage(item)) withoutEmptyLists(item);
    } else if (isMessage(v)) withoutEmptyLists(v);
  }
  return m;
}
