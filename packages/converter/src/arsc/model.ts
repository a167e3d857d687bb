import { type ResTableConfig } from './config.js';
import { type StringPool } from './stringPool.js';

/** A Res_value: the raw 8-bit data type and 32-bit data, as stored. */
export interface ResValue {
  readonly dataType: number;
  readonly data: number;
}

/** One ResTable_map of a complex entry: the key (attr id or internal key) and its value. */
export interface ResMapItem {
  readonly name: number;
  readonly value: ResValue;
}

export type EntryValue =
  | { readonly kind: 'simple'; readonly value: ResValue }
  | { readonly kind: 'map'; readonly parent: number; readonly items: readonly ResMapItem[] };

/** One entry of one ResTable_type chunk (one resource in one configuration). */
export interface ResEntry {
  /** Entry index EEEE of 0xPPTTEEEE. */
  readonly index: number;
  /** Index into the package's key pool. */
  readonly keyIndex: number;
  readonly name: string;
  /** ResTable_entry flags (COMPLEX, PUBLIC, WEAK, COMPACT, USES_FEATURE_FLAGS). */
  readonly flags: number;
  readonly value: EntryValue;
}

/** One ResTable_type chunk: the entries of one type in one configuration. */
export interface ResTypeChunk {
  readonly id: number;
  readonly name: string;
  /** ResTable_type flags (SPARSE, OFFSET16). */
  readonly flags: number;
  readonly entryCount: number;
  readonly config: ResTableConfig;
  /** Present entries, in index order. */
  readonly entries: readonly ResEntry[];
  readonly offset: number;
}

export interface ResTypeSpec {
  readonly id: number;
  readonly name: string;
  readonly typesCount: number;
  /** Per-entry flags: CONFIG_* change masks plus SPEC_PUBLIC / SPEC_STAGED_API. */
  readonly flags: readonly number[];
}

export interface LibraryEntry {
  readonly packageId: number;
  readonly packageName: string;
}

export interface OverlayablePolicy {
  readonly flags: number;
  readonly resourceIds: readonly number[];
}

export interface Overlayable {
  readonly name: string;
  readonly actor: string;
  readonly policies: readonly OverlayablePolicy[];
}

export interface StagedAlias {
  readonly stagedId: number;
  readonly finalizedId: number;
}

export interface ResPackage {
  readonly id: number;
  readonly name: string;
  readonly typeIdOffset: number;
  readonly lastPublicType: number;
  readonly lastPublicKey: number;
  readonly typeStrings: StringPool;
  readonly keyStrings: StringPool;
  readonly typeSpecs: readonly ResTypeSpec[];
  readonly types: readonly ResTypeChunk[];
  readonly libraries: readonly LibraryEntry[];
  readonly overlayables: readonly Overlayable[];
  readonly stagedAliases: readonly StagedAlias[];
}

/** A parsed resources.arsc. */
export interface ResourceTable {
  readonly valuePool: StringPool;
  readonly packages: readonly ResPackage[];
}
