import { expect } from 'chai';
import { parseBinaryXml } from '../src/axml/index.js';
import { ConverterError } from '../src/errors.js';
import { apiLevelForCodename, readManifest, repairManifest } from '../src/resources/index.js';
import { NONE, xmlDoc, xmlEndEl, xmlStartEl, xmlStartNs } from './helpers/chunks.js';

const ANDROID = 'http://schemas.android.com/apk/res/android';
const S = [
  'versionName', 'minSdkVersion', 'targetSdkVersion', 'name', 'isSplitRequired', 'debuggable', // 0-5 (mapped)
  'android', ANDROID, 'manifest', 'package', 'com.app', '1.0', 'uses-sdk', 'IceCreamSandwich', '21', // 6-14
  'application', 'meta-data', 'com.android.vending.splits', 'com.app.keep', 'uses-permission',
  'android.permission.INTERNET', 'split', 'uses-feature', 'android.hardware.camera', // 15-23
];
const IDS = [0x0101021c, 0x0101020c, 0x01010270, 0x01010003, 0x01010591, 0x0101000f];
const A = (name: number, type: number, data: number, raw?: number) => ({ ns: 7, name, type, data, raw });

function manifest(opts: { withVersionCode?: boolean; split?: boolean } = {}): Uint8Array {
  const rootAttrs = [
    ...(opts.withVersionCode ? [{ ns: 7, name: 24, type: 0x11, data: 0x2a }] : []),
    A(0, 0x03, 11, 11),
    { name: 9, type: 0x03, data: 10, raw: 10 },
    ...(opts.split ? [{ name: 21, type: 0x03, data: 10, raw: 10 }] : []),
  ];
  const strings = opts.withVersionCode ? [...S, 'versionCode'] : S;
  return xmlDoc(strings, IDS, [
    xmlStartNs(1, 6, 7),
    xmlStartEl(2, NONE, 8, rootAttrs),
    xmlStartEl(3, NONE, 12, [A(1, 0x03, 13, 13), A(2, 0x03, 14, 14)]),
    xmlEndEl(3, NONE, 12),
    xmlStartEl(4, NONE, 19, [A(3, 0x03, 20, 20)]),
    xmlEndEl(4, NONE, 19),
    xmlStartEl(5, NONE, 22, [A(3, 0x03, 23, 23)]),
    xmlEndEl(5, NONE, 22),
    xmlStartEl(6, NONE, 15, [A(4, 0x12, 0xffffffff), A(5, 0x12, 0)]),
    xmlStartEl(7, NONE, 16, [A(3, 0x03, 17, 17)]),
    xmlEndEl(7, NONE, 16),
    xmlStartEl(8, NONE, 16, [A(3, 0x03, 18, 18)]),
    xmlEndEl(8, NONE, 16),
    xmlEndEl(9, NONE, 15),
    xmlEndEl(10, NONE, 8),
  ]);
}

describe('resources manifest', () => {
  it('readManifest_sample_readsPackageVersionsSdkFlagsAndLists', () => {
    const info = readManifest(parseBinaryXml(manifest({ split: true })));
    expect(info).to.deep.equal({
      packageName: 'com.app',
      versionName: '1.0',
      split: 'com.app',
      minSdk: 'IceCreamSandwich',
      targetSdk: 21,
      debuggable: false,
      usesFeatures: ['android.hardware.camera'],
      permissions: ['android.permission.INTERNET'],
      usesSplits: [],
      hasUsesSdkLibrary: false,
      hasApplication: true,
    });
  });

  it('readManifest_idlessAndroidAttribute_findsItByName', () => {
    const info = readManifest(parseBinaryXml(manifest({ withVersionCode: true })));
    expect(info.versionCode).to.equal(0x2a);
  });

  it('repairManifest_missingVersionCode_insertsIntDecOneInIdOrder', () => {
    const { doc, warnings } = repairManifest(parseBinaryXml(manifest()), {});
    const root = doc.root;
    expect(root.attributes.map((a) => [a.name, a.resourceId])).to.deep.equal([
      ['versionCode', 0x0101021b],
      ['versionName', 0x0101021c],
      ['package', 0],
    ]);
    const vc = root.attributes[0];
    expect(vc).to.deep.include({ namespaceUri: ANDROID, rawValueIndex: -1, typedValue: { dataType: 0x10, data: 1 } });
    expect(doc.strings[vc.nameIndex]).to.equal('versionCode');
    expect(doc.resourceMap[vc.nameIndex]).to.equal(0x0101021b);
    expect(doc.resourceMap.length).to.equal(doc.strings.length);
    expect(warnings[0]).to.deep.equal({
      code: 'VERSION_CODE_MISSING',
      message: 'O manifesto não declarava android:versionCode; foi definido como 1.',
    });
  });

  it('repairManifest_hexVersionCodeWithoutId_rewritesAsDecimalWithId', () => {
    const { doc, warnings } = repairManifest(parseBinaryXml(manifest({ withVersionCode: true })), {});
    expect(readManifest(doc).versionCode).to.equal(42);
    expect(doc.root.attributes.filter((a) => a.name === 'versionCode')).to.have.length(1);
    expect(doc.root.attributes[0]).to.deep.include({ resourceId: 0x0101021b, typedValue: { dataType: 0x10, data: 42 } });
    expect(warnings.map((w) => w.code)).to.include('VERSION_CODE_NORMALIZED');
  });

  it('repairManifest_options_overrideVersionCodeAndName', () => {
    const { doc, warnings } = repairManifest(parseBinaryXml(manifest()), { versionCode: 7, versionName: '2.0' });
    const info = readManifest(doc);
    expect([info.versionCode, info.versionName]).to.deep.equal([7, '2.0']);
    const vn = doc.root.attributes.find((a) => a.name === 'versionName')!;
    expect(vn.rawValueIndex).to.equal(vn.typedValue.data);
    expect(warnings.map((w) => w.message)).to.include('O versionName foi definido como "2.0" (era "1.0").');
  });

  it('repairManifest_badVersionCodeOption_throwsInvalidOptions', () => {
    expect(() => repairManifest(parseBinaryXml(manifest()), { versionCode: -1 }))
      .to.throw(ConverterError)
      .with.property('code', 'INVALID_OPTIONS');
  });

  it('repairManifest_codenameSdk_becomesApiLevel', () => {
    const { doc, warnings } = repairManifest(parseBinaryXml(manifest()), {});
    const info = readManifest(doc);
    expect([info.minSdk, info.targetSdk]).to.deep.equal([14, 21]);
    expect(warnings).to.deep.include({
      code: 'SDK_CODENAME_REPLACED',
      message: 'O android:minSdkVersion "IceCreamSandwich" foi convertido para o nível de API 14.',
    });
    expect(warnings.map((w) => w.code)).to.include('SDK_VERSION_NORMALIZED'); // "21" typed as a string
  });

  it('repairManifest_bundletoolArtefacts_removesAttributeAndMetaData', () => {
    const { doc, warnings } = repairManifest(parseBinaryXml(manifest()), {});
    const app = doc.root.children.find((c) => c.kind === 'element' && c.name === 'application');
    if (!app || app.kind !== 'element') throw new Error('no application');
    expect(app.attributes.map((a) => a.name)).to.deep.equal(['debuggable']);
    expect(app.children).to.have.length(1);
    expect(warnings.map((w) => w.code)).to.include.members(['BUNDLETOOL_ATTRIBUTE_REMOVED', 'BUNDLETOOL_METADATA_REMOVED']);
  });

  it('apiLevelForCodename_spellings_mapToLevels', () => {
    expect(apiLevelForCodename('IceCreamSandwich')).to.equal(14);
    expect(apiLevelForCodename('ICE_CREAM_SANDWICH_MR1')).to.equal(15);
    expect(apiLevelForCodename('Tiramisu')).to.equal(33);
    expect(apiLevelForCodename('S')).to.equal(31);
    expect(apiLevelForCodename('Flan')).to.equal(undefined);
  });
});
