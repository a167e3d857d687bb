/** Res_value data types (ResourceTypes.h). */
export const DataType = {
  NULL: 0x00,
  REFERENCE: 0x01,
  ATTRIBUTE: 0x02,
  STRING: 0x03,
  FLOAT: 0x04,
  DIMENSION: 0x05,
  FRACTION: 0x06,
  DYNAMIC_REFERENCE: 0x07,
  DYNAMIC_ATTRIBUTE: 0x08,
  INT_DEC: 0x10,
  INT_HEX: 0x11,
  INT_BOOLEAN: 0x12,
  INT_COLOR_ARGB8: 0x1c,
  INT_COLOR_RGB8: 0x1d,
  INT_COLOR_ARGB4: 0x1e,
  INT_COLOR_RGB4: 0x1f,
} as const;

export const DATA_NULL_UNDEFINED = 0;
export const DATA_NULL_EMPTY = 1;

/** ResTable_entry flags. */
export const EntryFlag = {
  COMPLEX: 0x1,
  PUBLIC: 0x2,
  WEAK: 0x4,
  COMPACT: 0x8,
  USES_FEATURE_FLAGS: 0x10,
} as const;

/** ResTable_typeSpec flags. */
export const SPEC_PUBLIC = 0x40000000;
export const SPEC_STAGED_API = 0x20000000;

/** ResTable_type flags. */
export const TypeFlag = { SPARSE: 0x01, OFFSET16: 0x02 } as const;

export const NO_ENTRY = 0xffffffff;
export const NO_ENTRY_OFFSET16 = 0xffff;

/** ResTable_map keys with a special meaning (Res_MAKEINTERNAL). */
export const MapKey = {
  ATTR_TYPE: 0x01000000,
  ATTR_MIN: 0x01000001,
  ATTR_MAX: 0x01000002,
  ATTR_L10N: 0x01000003,
  ATTR_OTHER: 0x01000004,
  ATTR_ZERO: 0x01000005,
  ATTR_ONE: 0x01000006,
  ATTR_TWO: 0x01000007,
  ATTR_FEW: 0x01000008,
  ATTR_MANY: 0x01000009,
} as const;

/** ResTable_map::TYPE_* bits of an attribute's format mask. */
export const AttrFormat = {
  ANY: 0x0000ffff,
  REFERENCE: 0x1,
  STRING: 0x2,
  INTEGER: 0x4,
  BOOLEAN: 0x8,
  COLOR: 0x10,
  FLOAT: 0x20,
  DIMENSION: 0x40,
  FRACTION: 0x80,
  ENUM: 0x10000,
  FLAGS: 0x20000,
} as const;

/** Overlayable policy bits (ResTable_overlayable_policy_header::PolicyFlags). */
export const PolicyFlag = {
  PUBLIC: 0x1,
  SYSTEM_PARTITION: 0x2,
  VENDOR_PARTITION: 0x4,
  PRODUCT_PARTITION: 0x8,
  SIGNATURE: 0x10,
  ODM_PARTITION: 0x20,
  OEM_PARTITION: 0x40,
  ACTOR_SIGNATURE: 0x80,
  CONFIG_SIGNATURE: 0x100,
} as const;

/** Res_INTERNALID: ids like 0x01000000 that name attr/plural meta keys, not resources. */
export function isInternalId(id: number): boolean {
  return (id & 0xffff0000) !== 0 && (id & 0x00ff0000) === 0;
}

export function packageIdOf(resId: number): number {
  return (resId >>> 24) & 0xff;
}

export function typeIdOf(resId: number): number {
  return (resId >>> 16) & 0xff;
}

export function entryIdOf(resId: number): number {
  return resId & 0xffff;
}

/** The resource id 0xPPTTEEEE of a package, type and entry id. */
export function makeResId(pkg: number, type: number, entry: number): number {
  return ((pkg << 24) | (type << 16) | entry) >>> 0;
}
