import { type ByteReader } from './bytes.js';

/** sizeof(ResTable_config) in the newest ResourceTypes.h. */
export const CONFIG_STRUCT_SIZE = 64;

/**
 * Every field of ResTable_config. Configs shorter than the current struct read as 0 past
 * their `size`; bytes beyond the known struct are kept in `extra` (and otherwise ignored).
 */
export interface ResTableConfig {
  readonly size: number;
  readonly mcc: number;
  readonly mnc: number;
  /** Packed language/country codes, 2 raw bytes each (see unpackLanguageOrRegion). */
  readonly language: readonly [number, number];
  readonly country: readonly [number, number];
  readonly orientation: number;
  readonly touchscreen: number;
  readonly density: number;
  readonly keyboard: number;
  readonly navigation: number;
  readonly inputFlags: number;
  readonly grammaticalInflection: number;
  readonly screenWidth: number;
  readonly screenHeight: number;
  readonly sdkVersion: number;
  readonly minorVersion: number;
  readonly screenLayout: number;
  readonly uiMode: number;
  readonly smallestScreenWidthDp: number;
  readonly screenWidthDp: number;
  readonly screenHeightDp: number;
  readonly localeScript: readonly number[];
  readonly localeVariant: readonly number[];
  readonly screenLayout2: number;
  readonly colorMode: number;
  readonly screenConfigPad2: number;
  readonly localeScriptWasComputed: boolean;
  readonly localeNumberingSystem: readonly number[];
  /** Bytes after the 64-byte struct, when the file's config is longer. */
  readonly extra: Uint8Array;
}

/** Reads a ResTable_config at `offset`, of which at most `available` bytes belong to it. */
export function parseConfig(r: ByteReader, offset: number, available: number): ResTableConfig {
  const size = r.u32(offset, 'ResTable_config.size');
  if (size < 4) r.fail(`ResTable_config at offset ${offset}: size ${size} < 4`);
  if (size > available) {
    r.fail(`ResTable_config at offset ${offset}: size ${size} exceeds the ${available} header bytes holding it`);
  }
  const raw = new Uint8Array(CONFIG_STRUCT_SIZE);
  raw.set(r.bytes(offset, Math.min(size, CONFIG_STRUCT_SIZE)));
  const extra = size > CONFIG_STRUCT_SIZE ? r.bytes(offset + CONFIG_STRUCT_SIZE, size - CONFIG_STRUCT_SIZE).slice() : new Uint8Array(0);
  return configFromBytes(raw, size, extra);
}

/** Decodes a 64-byte (zero-padded) ResTable_config image. */
export function configFromBytes(raw: Uint8Array, size = CONFIG_STRUCT_SIZE, extra = new Uint8Array(0)): ResTableConfig {
  const v = new DataView(raw.buffer, raw.byteOffset, CONFIG_STRUCT_SIZE);
  const u8 = (o: number): number => v.getUint8(o);
  const u16 = (o: number): number => v.getUint16(o, true);
  const arr = (o: number, n: number): number[] => Array.from(raw.subarray(o, o + n));
  return {
    size,
    mcc: u16(4),
    mnc: u16(6),
    language: [u8(8), u8(9)],
    country: [u8(10), u8(11)],
    orientation: u8(12),
    touchscreen: u8(13),
    density: u16(14),
    keyboard: u8(16),
    navigation: u8(17),
    inputFlags: u8(18),
    grammaticalInflection: u8(19),
    screenWidth: u16(20),
    screenHeight: u16(22),
    sdkVersion: u16(24),
    minorVersion: u16(26),
    screenLayout: u8(28),
    uiMode: u8(29),
    smallestScreenWidthDp: u16(30),
    screenWidthDp: u16(32),
    screenHeightDp: u16(34),
    localeScript: arr(36, 4),
    localeVariant: arr(40, 8),
    screenLayout2: u8(48),
    colorMode: u8(49),
    screenConfigPad2: u16(50),
    localeScriptWasComputed: u8(52) !== 0,
    localeNumberingSystem: arr(53, 8),
    extra,
  };
}

/** The default ("any") configuration. */
export const DEFAULT_CONFIG: ResTableConfig = configFromBytes(new Uint8Array(CONFIG_STRUCT_SIZE));

function unpackCode(code: readonly [number, number], base: number): number[] {
  const [b0, b1] = code;
  if (b0 & 0x80) {
    const first = b1 & 0x1f;
    const second = ((b1 & 0xe0) >> 5) | ((b0 & 0x03) << 3);
    const third = (b0 & 0x7c) >> 2;
    return [first + base, second + base, third + base];
  }
  if (b0 !== 0) return [b0, b1];
  return [];
}

/** Unpacked language code ("en", "fil"), "" when unset. */
export function configLanguage(c: ResTableConfig): string {
  return cString(unpackCode(c.language, 0x61));
}

/** Unpacked region code ("US", "419"), "" when unset. */
export function configRegion(c: ResTableConfig): string {
  return cString(unpackCode(c.country, 0x30));
}

function cString(bytes: readonly number[]): string {
  const nul = bytes.indexOf(0);
  return String.fromCharCode(...(nul >= 0 ? bytes.slice(0, nul) : bytes));
}

/**
 * BCP-47 tag exactly as ResTable_config::getBcp47Locale(canonicalize=false) writes it (which is
 * what aapt2 serializes): a C string, so a NUL inside a field truncates the whole tag.
 */
export function configBcp47(c: ResTableConfig): string {
  if (c.language[0] === 0 && c.country[0] === 0) return '';
  const out: number[] = [];
  const dash = (): void => {
    if (out.length > 0) out.push(0x2d);
  };
  if (c.language[0] !== 0) out.push(...unpackCode(c.language, 0x61));
  if (c.localeScript[0] !== 0 && !c.localeScriptWasComputed) {
    dash();
    out.push(...c.localeScript);
  }
  if (c.country[0] !== 0) {
    dash();
    out.push(...unpackCode(c.country, 0x30));
  }
  if (c.localeVariant[0] !== 0) {
    dash();
    const nul = c.localeVariant.indexOf(0);
    out.push(...(nul >= 0 ? c.localeVariant.slice(0, nul) : c.localeVariant));
  }
  if (c.localeNumberingSystem[0] !== 0 && out.length > 0) {
    out.push(...Array.from('-u-nu-', (ch) => ch.charCodeAt(0)), ...c.localeNumberingSystem);
  }
  return cString(out);
}
