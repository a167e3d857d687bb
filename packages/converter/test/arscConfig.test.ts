import { expect } from 'chai';
import { ByteReader, configBcp47, configFromBytes, parseConfig } from '../src/arsc/index.js';
import { ConverterError } from '../src/errors.js';
import { configToProto } from '../src/resources/configProto.js';
import { ascii, configBytes } from './helpers/chunks.js';

function cfg(fields: Record<string, number | number[]>, size = 64) {
  const b = configBytes(fields, size);
  return parseConfig(new ByteReader(b, 'BAD_RESOURCE_TABLE'), 0, b.length);
}

describe('arsc ResTable_config', () => {
  it('parseConfig_everyField_readsItsOffset', () => {
    const c = cfg({
      mcc: 310, mnc: 260, language: [0x65, 0x6e], country: [0x55, 0x53], orientation: 2, touchscreen: 3,
      density: 480, keyboard: 2, navigation: 4, inputFlags: 0x0a, grammaticalInflection: 2, screenWidth: 800,
      screenHeight: 600, sdkVersion: 21, minorVersion: 1, screenLayout: 0x63, uiMode: 0x24,
      smallestScreenWidthDp: 600, screenWidthDp: 720, screenHeightDp: 1280, localeScript: ascii('Latn', 4),
      localeVariant: ascii('posix', 8), screenLayout2: 2, colorMode: 0x0a, localeScriptWasComputed: 1,
      localeNumberingSystem: ascii('arab', 8),
    });
    expect(c).to.deep.include({
      size: 64, mcc: 310, mnc: 260, orientation: 2, touchscreen: 3, density: 480, keyboard: 2, navigation: 4,
      inputFlags: 0x0a, grammaticalInflection: 2, screenWidth: 800, screenHeight: 600, sdkVersion: 21,
      minorVersion: 1, screenLayout: 0x63, uiMode: 0x24, smallestScreenWidthDp: 600, screenWidthDp: 720,
      screenHeightDp: 1280, screenLayout2: 2, colorMode: 0x0a, localeScriptWasComputed: true,
    });
    expect(c.language).to.deep.equal([0x65, 0x6e]);
    expect(c.localeScript).to.deep.equal(ascii('Latn', 4));
    expect(c.localeVariant).to.deep.equal(ascii('posix', 8));
    expect(c.localeNumberingSystem).to.deep.equal(ascii('arab', 8));
  });

  it('parseConfig_shortOldStruct_readsMissingFieldsAsZero', () => {
    const short = configBytes({ density: 240, sdkVersion: 4 }, 28);
    const s = parseConfig(new ByteReader(short, 'BAD_RESOURCE_TABLE'), 0, 28);
    expect(s).to.deep.include({ size: 28, density: 240, sdkVersion: 4, screenLayout: 0, smallestScreenWidthDp: 0 });
  });

  it('parseConfig_longerThanStruct_keepsExtraBytes', () => {
    const b = new Uint8Array(72);
    b.set(configBytes({ density: 160 }));
    new DataView(b.buffer).setUint32(0, 72, true);
    b[64] = 0xaa;
    const c = parseConfig(new ByteReader(b, 'BAD_RESOURCE_TABLE'), 0, 72);
    expect(c.density).to.equal(160);
    expect(Array.from(c.extra)).to.deep.equal([0xaa, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('parseConfig_sizeBeyondHeader_throwsBadResourceTable', () => {
    const b = configBytes({});
    expect(() => parseConfig(new ByteReader(b, 'BAD_RESOURCE_TABLE'), 0, 40))
      .to.throw(ConverterError)
      .with.property('detail')
      .match(/size 64 exceeds the 40 header bytes/);
  });
});

describe('arsc locale (getBcp47Locale)', () => {
  const tag = (f: Record<string, number | number[]>): string => configBcp47(configFromBytes(configBytes(f)));

  it('configBcp47_languageAndRegion_joinsWithDash', () => {
    expect(tag({ language: ascii('pt', 2), country: ascii('BR', 2) })).to.equal('pt-BR');
    expect(tag({})).to.equal('');
  });

  it('configBcp47_packedThreeLetterCodes_unpacksLanguageAndNumericRegion', () => {
    // "fil" packed: first=f(5), second=i(8), third=l(11); region "419" packed with base '0'.
    const pack = (s: string, base: number): number[] => {
      const [a, b, c] = [...s].map((ch) => ch.charCodeAt(0) - base);
      return [0x80 | (c << 2) | (b >> 3), ((b & 7) << 5) | a];
    };
    expect(tag({ language: pack('fil', 0x61), country: pack('419', 0x30) })).to.equal('fil-419');
  });

  it('configBcp47_scriptVariantNumbering_followsAaptOrder', () => {
    expect(tag({ language: ascii('sr', 2), localeScript: ascii('Latn', 4), country: ascii('RS', 2) })).to.equal('sr-Latn-RS');
    expect(tag({ language: ascii('sr', 2), localeScript: ascii('Latn', 4), localeScriptWasComputed: 1 })).to.equal('sr');
    expect(tag({ language: ascii('ca', 2), localeVariant: ascii('valencia', 8) })).to.equal('ca-valencia');
    expect(tag({ language: ascii('ar', 2), localeNumberingSystem: ascii('latn', 8) })).to.equal('ar-u-nu-latn');
  });
});

describe('resources config → proto', () => {
  const proto = (f: Record<string, number | number[]>) => configToProto(configFromBytes(configBytes(f)));

  it('configToProto_defaultConfig_isEmpty', () => {
    expect(proto({})).to.deep.equal({});
  });

  it('configToProto_invertedYesNoFields_mapAsAapt2', () => {
    expect(proto({ screenLayout: 0x20 | 0x40 | 0x03, screenLayout2: 2, colorMode: 0x02 | 0x08, uiMode: 0x20 | 0x06 })).to.deep.equal({
      layout_direction: 1, screen_layout_size: 3, screen_layout_long: 1, screen_round: 1, wide_color_gamut: 1,
      hdr: 1, ui_mode_type: 6, ui_mode_night: 1,
    });
    expect(proto({ screenLayout: 0x10 | 0x80, screenLayout2: 1, colorMode: 0x01 | 0x04, uiMode: 0x10 })).to.deep.equal({
      layout_direction: 2, screen_layout_long: 2, screen_round: 2, wide_color_gamut: 2, hdr: 2, ui_mode_night: 2,
    });
  });

  it('configToProto_everyOtherField_copiesOrMaps', () => {
    expect(
      proto({
        mcc: 724, mnc: 5, language: ascii('pt', 2), country: ascii('BR', 2), orientation: 2, touchscreen: 3,
        density: 0xfffe, keyboard: 3, navigation: 2, inputFlags: 0x03 | 0x08, grammaticalInflection: 3,
        screenWidth: 1, screenHeight: 2, sdkVersion: 26, minorVersion: 9, smallestScreenWidthDp: 600,
        screenWidthDp: 720, screenHeightDp: 960,
      }),
    ).to.deep.equal({
      mcc: 724, mnc: 5, locale: 'pt-BR', orientation: 2, touchscreen: 3, density: 0xfffe, keyboard: 3,
      navigation: 2, keys_hidden: 3, nav_hidden: 2, grammatical_gender: 3, screen_width: 1, screen_height: 2,
      sdk_version: 26, smallest_screen_width_dp: 600, screen_width_dp: 720, screen_height_dp: 960,
    });
  });

  it('configToProto_outOfRangeEnumPatterns_leaveFieldsUnset', () => {
    expect(proto({ orientation: 9, touchscreen: 7, keyboard: 5, navigation: 9, uiMode: 0x0f })).to.deep.equal({});
  });
});
