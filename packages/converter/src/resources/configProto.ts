import { configBcp47, type ResTableConfig } from '../arsc/config.js';
import { encodeAapt, type PbConfiguration } from '../proto/aapt.js';

/** Maps a binary config field value through a table; unknown patterns stay UNSET (omitted). */
function mapped(table: Readonly<Record<number, number>>, v: number): number | undefined {
  return table[v];
}

const LAYOUT_DIR: Record<number, number> = { 0x40: 1, 0x80: 2 };
const SCREEN_SIZE: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4 };
const SCREEN_LONG: Record<number, number> = { 0x20: 1, 0x10: 2 };
const SCREEN_ROUND: Record<number, number> = { 2: 1, 1: 2 };
const WIDE_GAMUT: Record<number, number> = { 2: 1, 1: 2 };
const HDR: Record<number, number> = { 0x08: 1, 0x04: 2 };
const ORIENTATION: Record<number, number> = { 1: 1, 2: 2, 3: 3 };
const UI_TYPE: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7 };
const UI_NIGHT: Record<number, number> = { 0x20: 1, 0x10: 2 };
const TOUCH: Record<number, number> = { 1: 1, 2: 2, 3: 3 };
const KEYS_HIDDEN: Record<number, number> = { 1: 1, 2: 2, 3: 3 };
const KEYBOARD: Record<number, number> = { 1: 1, 2: 2, 3: 3 };
const NAV_HIDDEN: Record<number, number> = { 0x04: 1, 0x08: 2 };
const NAVIGATION: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4 };

/**
 * ResTable_config → aapt.pb.Configuration, field by field as aapt2's SerializeConfig does
 * (docs/aab-format.md "Configuration"), including the five inverted yes/no fields. Defaults are omitted.
 */
export function configToProto(c: ResTableConfig): PbConfiguration {
  const out: PbConfiguration = {};
  const set = <K extends keyof PbConfiguration>(k: K, v: PbConfiguration[K] | undefined): void => {
    if (v !== undefined && v !== 0 && v !== '') out[k] = v;
  };
  set('mcc', c.mcc);
  set('mnc', c.mnc);
  set('locale', configBcp47(c));
  set('layout_direction', mapped(LAYOUT_DIR, c.screenLayout & 0xc0));
  set('screen_width', c.screenWidth);
  set('screen_height', c.screenHeight);
  set('screen_width_dp', c.screenWidthDp);
  set('screen_height_dp', c.screenHeightDp);
  set('smallest_screen_width_dp', c.smallestScreenWidthDp);
  set('screen_layout_size', mapped(SCREEN_SIZE, c.screenLayout & 0x0f));
  set('screen_layout_long', mapped(SCREEN_LONG, c.screenLayout & 0x30));
  set('screen_round', mapped(SCREEN_ROUND, c.screenLayout2 & 0x03));
  set('wide_color_gamut', mapped(WIDE_GAMUT, c.colorMode & 0x03));
  set('hdr', mapped(HDR, c.colorMode & 0x0c));
  set('orientation', mapped(ORIENTATION, c.orientation));
  set('ui_mode_type', mapped(UI_TYPE, c.uiMode & 0x0f));
  set('ui_mode_night', mapped(UI_NIGHT, c.uiMode & 0x30));
  set('density', c.density);
  set('touchscreen', mapped(TOUCH, c.touchscreen));
  set('keys_hidden', mapped(KEYS_HIDDEN, c.inputFlags & 0x03));
  set('keyboard', mapped(KEYBOARD, c.keyboard));
  set('nav_hidden', mapped(NAV_HIDDEN, c.inputFlags & 0x0c));
  set('navigation', mapped(NAVIGATION, c.navigation));
  set('sdk_version', c.sdkVersion);
  set('grammatical_gender', c.grammaticalInflection & 0x03);
  return out;
}

/** A key equal for two configs exactly when their proto forms are equal. */
export function configProtoKey(c: PbConfiguration): string {
  return Buffer.from(encodeAapt('Configuration', c)).toString('latin1');
}
