/**
 * The aapt.pb schema (snake_case names kept), plus the plain-object shapes the converter builds.
 * Builders must omit proto3 scalars equal to their default and must always set oneof members and
 * presence-bearing sub-messages (docs/aab-format.md "Protobuf encoding rules"): the protobufjs encoder writes every own,
 * non-null property, in field-number order, so the same object always gives the same bytes.
 *
 * A conversion only encodes, from the schema's descriptors kept as source (descriptors.ts):
 * the schema itself is parsed by protobufjs on first use of `AaptPb` (decoding, validating a
 * bundle, checking encodes), not at start (~5 ms of every conversion's start).
 */
import type protobuf from 'protobufjs';
import { AAPT_PROTO } from './aaptSchema.js';
import { encodeChecked } from './fastEncode.js';
import { lazySchema } from './lazySchema.js';

/** The messages the converter writes and reads, by short name. */
export type AaptMessage = 'ResourceTable' | 'XmlNode' | 'Configuration' | 'Item' | 'Value';

const schema = lazySchema<AaptMessage>(AAPT_PROTO, 'aapt.pb', ['ResourceTable', 'XmlNode', 'Configuration', 'Item', 'Value']);

/** The parsed schema (parsed on the first call). */
export const aaptRoot = (): protobuf.Root => schema.root();

/** protobufjs's types of the schema (decoding, reflection), looked up on first use. */
export const AaptPb = schema.types;

export type Empty = Record<string, never>;

export interface PbSourcePosition {
  line_number?: number;
  column_number?: number;
}

export interface PbReference {
  type?: number;
  id?: number;
  name?: string;
  private?: boolean;
  is_dynamic?: { value?: boolean };
  type_flags?: number;
  allow_raw?: boolean;
}

export interface PbPrimitive {
  null_value?: Empty;
  empty_value?: Empty;
  float_value?: number;
  int_decimal_value?: number;
  int_hexadecimal_value?: number;
  boolean_value?: boolean;
  color_argb8_value?: number;
  color_rgb8_value?: number;
  color_argb4_value?: number;
  color_rgb4_value?: number;
  dimension_value?: number;
  fraction_value?: number;
}

export interface PbSpan {
  tag?: string;
  first_char?: number;
  last_char?: number;
}

export interface PbItem {
  ref?: PbReference;
  str?: { value?: string };
  raw_str?: { value?: string };
  styled_str?: { value?: string; span?: PbSpan[] };
  file?: { path?: string; type?: number };
  id?: Empty;
  prim?: PbPrimitive;
}

export interface PbAttribute {
  format_flags?: number;
  min_int?: number;
  max_int?: number;
  symbol?: { name: PbReference; value?: number; type?: number }[];
}

export interface PbStyle {
  parent?: PbReference;
  entry?: { key: PbReference; item: PbItem }[];
}

export interface PbCompoundValue {
  attr?: PbAttribute;
  style?: PbStyle;
  array?: { element?: { item: PbItem }[] };
  plural?: { entry?: { arity?: number; item: PbItem }[] };
}

export interface PbValue {
  comment?: string;
  weak?: boolean;
  item?: PbItem;
  compound_value?: PbCompoundValue;
}

export interface PbConfiguration {
  mcc?: number;
  mnc?: number;
  locale?: string;
  layout_direction?: number;
  screen_width?: number;
  screen_height?: number;
  screen_width_dp?: number;
  screen_height_dp?: number;
  smallest_screen_width_dp?: number;
  screen_layout_size?: number;
  screen_layout_long?: number;
  screen_round?: number;
  wide_color_gamut?: number;
  hdr?: number;
  orientation?: number;
  ui_mode_type?: number;
  ui_mode_night?: number;
  density?: number;
  touchscreen?: number;
  keys_hidden?: number;
  keyboard?: number;
  nav_hidden?: number;
  navigation?: number;
  sdk_version?: number;
  product?: string;
  grammatical_gender?: number;
}

export interface PbConfigValue {
  config: PbConfiguration;
  value: PbValue;
}

export interface PbEntry {
  entry_id: { id?: number };
  name?: string;
  visibility: { level?: number; staged_api?: boolean };
  overlayable_item?: { policy?: number[]; overlayable_idx?: number };
  config_value: PbConfigValue[];
  staged_id?: { staged_id?: number };
}

export interface PbType {
  type_id: { id?: number };
  name?: string;
  entry: PbEntry[];
}

export interface PbPackage {
  package_id: { id?: number };
  package_name?: string;
  type: PbType[];
}

export interface PbResourceTable {
  package: PbPackage[];
  overlayable?: { name?: string; actor?: string }[];
  tool_fingerprint?: { tool?: string; version?: string }[];
  dynamic_ref_table?: { package_id: { id?: number }; package_name?: string }[];
}

export interface PbXmlNamespace {
  prefix?: string;
  uri?: string;
  source?: PbSourcePosition;
}

export interface PbXmlAttribute {
  namespace_uri?: string;
  name?: string;
  value?: string;
  source?: PbSourcePosition;
  resource_id?: number;
  compiled_item?: PbItem;
}

export interface PbXmlElement {
  namespace_declaration?: PbXmlNamespace[];
  namespace_uri?: string;
  name?: string;
  attribute?: PbXmlAttribute[];
  child?: PbXmlNode[];
}

export interface PbXmlNode {
  element?: PbXmlElement;
  text?: string;
  source?: PbSourcePosition;
}

/** `AaptPb[name].encode(value).finish()`, byte for byte, through the fast encoder (fastEncode.ts), without parsing the schema. */
export function encodeAapt(name: AaptMessage, value: object): Uint8Array {
  return encodeChecked(schema.ref(name), value);
}

/** Decodes to a plain object (enums as numbers, 64-bit as numbers, defaults left out). */
export function decodeAapt(type: protobuf.Type, bytes: Uint8Array): Record<string, unknown> {
  return type.toObject(type.decode(bytes), { longs: Number, enums: Number, bytes: Array });
}

export function decodeResourceTablePb(bytes: Uint8Array): Record<string, unknown> {
  return decodeAapt(AaptPb.ResourceTable, bytes);
}

export function decodeXmlNodePb(bytes: Uint8Array): Record<string, unknown> {
  return decodeAapt(AaptPb.XmlNode, bytes);
}
