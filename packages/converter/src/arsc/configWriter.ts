/**
 * aapt.pb.Configuration → ResTable_config, as aapt2's DeserializeConfigFromPb and LocaleValue
 * (the BCP-47 tag split into language, script, region and variant) fill one; plus the two
 * comparisons the table flattener needs: the order of configurations, and the change mask
 * (ResTable_config::diff) written into each type spec. See docs/apks.md.
 */
import type { PbConfiguration } from '../proto/aapt.js';
import { CONFIG_STRUCT_SIZE, type ResTableConfig } from './config.js';

/** ResTable_config::CONFIG_* change bits. */
export const ConfigChange = {
  MCC: 0x0001,
  MNC: 0x0002,
  LOCALE: 0x0004,
  TOUCHSCREEN: 0x0008,
  KEYBOARD: 0x0010,
  KEYBOARD_HIDDEN: 0x0020,
  NAVIGATION: 0x0040,
  ORIENTATION: 0x0080,
  DENSITY: 0x0100,
  SCREEN_SIZE: 0x0200,
  VERSION: 0x0400,
  SCREEN_LAYOUT: 0x0800,
  UI_MODE: 0x1000,
  SMALLEST_SCREEN_SIZE: 0x2000,
  LAYOUTDIR: 0x4000,
  SCREEN_ROUND: 0x8000,
  COLOR_MODE: 0x10000,
  GRAMMATICAL_GENDER: 0x20000,
} as const;

/** The parts of a locale as LocaleValue holds them (lower-case language, upper-case region ...). */
export interface LocaleParts {
  language: string;
  region: string;
  script: string;
  variant: string;
}

/** LocaleValue::InitFromBcp47Tag: undefined when aapt2 would call the tag invalid. */
export function parseBcp47(tag: string, separator = '-'): LocaleParts | undefined {
  const sub = tag.toLowerCase().split(separator);
  const out: LocaleParts = { language: sub[0], region: '', script: '', variant: '' };
  const script = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  if (sub.length === 1) return out;
  if (sub.length === 2) {
    const s = sub[1];
    if (s.length === 2 || s.length === 3) out.region = s.toUpperCase();
    else if (s.length === 4 && !/^[0-9]/.test(s)) out.script = script(s);
    else if (s.length >= 4 && s.length <= 8) out.variant = s;
    else return undefined;
    return out;
  }
  if (sub.length === 3) {
    if (sub[1].length === 4) out.script = script(sub[1]);
    else if (sub[1].length === 2 || sub[1].length === 3) out.region = sub[1].toUpperCase();
    else return undefined;
    if (sub[2].length >= 4) out.variant = sub[2];
    else out.region = sub[2].toUpperCase();
    return out;
  }
  if (sub.length === 4) {
    out.script = script(sub[1]);
    out.region = sub[2].toUpperCase();
    out.variant = sub[3];
    return out;
  }
  return undefined;
}

/** ResTable_config::packLanguage / packRegion: two ASCII bytes, or three letters in 15 bits. */
function packCode(code: string, base: number): [number, number] {
  const c = (i: number): number => (i < code.length ? code.charCodeAt(i) : 0);
  if (code.length >= 3 && c(2) !== 0) {
    const first = (c(0) - base) & 0x1f;
    const second = (c(1) - base) & 0x1f;
    const third = (c(2) - base) & 0x1f;
    return [0x80 | (third << 2) | (second >> 3), ((second << 5) | first) & 0xff];
  }
  return [c(0) & 0xff, c(1) & 0xff];
}

function putAscii(b: Uint8Array, at: number, size: number, s: string): void {
  for (let i = 0; i < size && i < s.length; i++) b[at + i] = s.charCodeAt(i) & 0xff;
}

const LAYOUT_DIR = [0, 0x40, 0x80];
const SCREEN_LONG = [0, 0x20, 0x10];
const ROUND = [0, 0x02, 0x01];
const WIDE_GAMUT = [0, 0x02, 0x01];
const HDR = [0, 0x08, 0x04];
const UI_NIGHT = [0, 0x20, 0x10];
const NAV_HIDDEN = [0, 0x04, 0x08];

/** The 64-byte ResTable_config aapt2 writes for a proto configuration (invalid locales are the caller's check). */
export function configToBinary(c: PbConfiguration): Uint8Array {
  const b = new Uint8Array(CONFIG_STRUCT_SIZE);
  const v = new DataView(b.buffer);
  v.setUint32(0, CONFIG_STRUCT_SIZE, true);
  v.setUint16(4, (c.mcc ?? 0) & 0xffff, true);
  v.setUint16(6, (c.mnc ?? 0) & 0xffff, true);
  if (c.locale) {
    const l = parseBcp47(c.locale);
    if (l) {
      const [l0, l1] = packCode(l.language, 0x61);
      const [r0, r1] = packCode(l.region, 0x30);
      b[8] = l0;
      b[9] = l1;
      b[10] = r0;
      b[11] = r1;
      putAscii(b, 36, 4, l.script);
      putAscii(b, 40, 8, l.variant);
    }
  }
  const small = (x: number | undefined, max: number): number => (x !== undefined && x >= 1 && x <= max ? x : 0);
  b[12] = small(c.orientation, 3);
  b[13] = small(c.touchscreen, 3);
  v.setUint16(14, (c.density ?? 0) & 0xffff, true);
  b[16] = small(c.keyboard, 3);
  b[17] = small(c.navigation, 4);
  b[18] = small(c.keys_hidden, 3) | (NAV_HIDDEN[small(c.nav_hidden, 2)] ?? 0);
  b[19] = small(c.grammatical_gender, 3);
  v.setUint16(20, (c.screen_width ?? 0) & 0xffff, true);
  v.setUint16(22, (c.screen_height ?? 0) & 0xffff, true);
  v.setUint16(24, (c.sdk_version ?? 0) & 0xffff, true);
  b[28] = (LAYOUT_DIR[small(c.layout_direction, 2)] ?? 0) | small(c.screen_layout_size, 4) | (SCREEN_LONG[small(c.screen_layout_long, 2)] ?? 0);
  b[29] = small(c.ui_mode_type, 7) | (UI_NIGHT[small(c.ui_mode_night, 2)] ?? 0);
  v.setUint16(30, (c.smallest_screen_width_dp ?? 0) & 0xffff, true);
  v.setUint16(32, (c.screen_width_dp ?? 0) & 0xffff, true);
  v.setUint16(34, (c.screen_height_dp ?? 0) & 0xffff, true);
  b[48] = ROUND[small(c.screen_round, 2)] ?? 0;
  b[49] = (WIDE_GAMUT[small(c.wide_color_gamut, 2)] ?? 0) | (HDR[small(c.hdr, 2)] ?? 0);
  return b;
}


const u32 = (lo: number, hi: number): number => ((hi & 0xffff) * 0x10000 + (lo & 0xffff));

const localeKeys = new WeakMap<ResTableConfig, string>();

/** The locale fields as one comparable text, made once per configuration (the flattener compares them often). */
function localeKey(c: ResTableConfig): string {
  let key = localeKeys.get(c);
  if (key === undefined) {
    key = [c.language, c.country, c.localeScript, c.localeVariant].map((a) => a.map((x) => x.toString(16).padStart(2, '0')).join('')).join('.');
    localeKeys.set(c, key);
  }
  return key;
}

function cmp(a: number | string, b: number | string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The order of ResTable_config::compare (imsi, locale, screen type, input, sizes, version ...). */
export function compareConfigs(a: ResTableConfig, b: ResTableConfig): number {
  return (
    cmp(u32(a.mcc, a.mnc), u32(b.mcc, b.mnc)) ||
    cmp(localeKey(a), localeKey(b)) ||
    cmp(a.grammaticalInflection, b.grammaticalInflection) ||
    cmp(a.orientation + a.touchscreen * 0x100 + a.density * 0x10000, b.orientation + b.touchscreen * 0x100 + b.density * 0x10000) ||
    cmp(a.keyboard + a.navigation * 0x100 + a.inputFlags * 0x10000, b.keyboard + b.navigation * 0x100 + b.inputFlags * 0x10000) ||
    cmp(u32(a.screenWidth, a.screenHeight), u32(b.screenWidth, b.screenHeight)) ||
    cmp(u32(a.sdkVersion, a.minorVersion), u32(b.sdkVersion, b.minorVersion)) ||
    cmp(a.screenLayout, b.screenLayout) ||
    cmp(a.screenLayout2, b.screenLayout2) ||
    cmp(a.colorMode, b.colorMode) ||
    cmp(a.uiMode, b.uiMode) ||
    cmp(a.smallestScreenWidthDp, b.smallestScreenWidthDp) ||
    cmp(u32(a.screenWidthDp, a.screenHeightDp), u32(b.screenWidthDp, b.screenHeightDp))
  );
}

/** ResTable_config::diff: the CONFIG_* bits of the fields in which two configurations differ. */
export function configDiff(a: ResTableConfig, b: ResTableConfig): number {
  let d = 0;
  if (a.mcc !== b.mcc) d |= ConfigChange.MCC;
  if (a.mnc !== b.mnc) d |= ConfigChange.MNC;
  if (a.orientation !== b.orientation) d |= ConfigChange.ORIENTATION;
  if (a.density !== b.density) d |= ConfigChange.DENSITY;
  if (a.touchscreen !== b.touchscreen) d |= ConfigChange.TOUCHSCREEN;
  if (((a.inputFlags ^ b.inputFlags) & 0x0f) !== 0) d |= ConfigChange.KEYBOARD_HIDDEN;
  if (a.keyboard !== b.keyboard) d |= ConfigChange.KEYBOARD;
  if (a.navigation !== b.navigation) d |= ConfigChange.NAVIGATION;
  if (a.screenWidth !== b.screenWidth || a.screenHeight !== b.screenHeight) d |= ConfigChange.SCREEN_SIZE;
  if (a.sdkVersion !== b.sdkVersion || a.minorVersion !== b.minorVersion) d |= ConfigChange.VERSION;
  if ((a.screenLayout & 0xc0) !== (b.screenLayout & 0xc0)) d |= ConfigChange.LAYOUTDIR;
  if ((a.screenLayout & ~0xc0) !== (b.screenLayout & ~0xc0)) d |= ConfigChange.SCREEN_LAYOUT;
  if ((a.screenLayout2 & 0x03) !== (b.screenLayout2 & 0x03)) d |= ConfigChange.SCREEN_ROUND;
  if ((a.colorMode & 0x0f) !== (b.colorMode & 0x0f)) d |= ConfigChange.COLOR_MODE;
  if (a.uiMode !== b.uiMode) d |= ConfigChange.UI_MODE;
  if (a.smallestScreenWidthDp !== b.smallestScreenWidthDp) d |= ConfigChange.SMALLEST_SCREEN_SIZE;
  if (a.screenWidthDp !== b.screenWidthDp || a.screenHeightDp !== b.screenHeightDp) d |= ConfigChange.SCREEN_SIZE;
  if (localeKey(a) !== localeKey(b)) d |= ConfigChange.LOCALE;
  if (a.grammaticalInflection !== b.grammaticalInflection) d |= ConfigChange.GRAMMATICAL_GENDER;
  return d;
}
