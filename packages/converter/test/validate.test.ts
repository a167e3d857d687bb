import { expect } from 'chai';
import { ALL_VALIDATORS, runValidators, validateBundle, type BundleView, type Validator } from '../src/validate/index.js';
import * as v from '../src/validate/index.js';
import { encodeAapt, type PbEntry, type PbResourceTable, type PbValue, type PbXmlAttribute, type PbXmlNode } from '../src/proto/aapt.js';
import { BundlePb, encodeMessage, type AssetsMsg, type BundleConfigMsg, type NativeLibrariesMsg } from '../src/proto/bundle.js';
import { ZipWriter } from '../src/zip/index.js';
import { TempDir } from './helpers/zipBuilder.js';

type Files = Record<string, Uint8Array | string>;
const ANDROID = 'http://schemas.android.com/apk/res/android';
const DIST = 'http://schemas.android.com/apk/distribution';

function view(files: Files, zipNames?: string[]): BundleView {
  return {
    files: Object.entries(files).map(([path, data]) => ({ path, read: async () => (typeof data === 'string' ? Buffer.from(data) : data) })),
    ...(zipNames ? { zipNames } : {}),
  };
}

const intAttr = (name: string, id: number, value: number): PbXmlAttribute => ({ namespace_uri: ANDROID, name, resource_id: id, compiled_item: { prim: { int_decimal_value: value } } });
const boolAttr = (name: string, id: number, value: boolean): PbXmlAttribute => ({ namespace_uri: ANDROID, name, resource_id: id, compiled_item: { prim: { boolean_value: value } } });
const el = (name: string, attribute: PbXmlAttribute[] = [], child: PbXmlNode[] = [], ns = ''): PbXmlNode => ({
  element: { name, ...(ns ? { namespace_uri: ns } : {}), attribute, child },
});

function manifest(rootAttrs: PbXmlAttribute[] = [intAttr('versionCode', 0x0101021b, 1)], children: PbXmlNode[] = []): Uint8Array {
  return encodeAapt('XmlNode', el('manifest', [{ name: 'package', value: 'com.example' }, ...rootAttrs], children));
}
const config = (c: BundleConfigMsg = { bundletool: { version: '1.18.1' } }): Uint8Array => encodeMessage('BundleConfig', c);
const table = (t: PbResourceTable): Uint8Array => encodeAapt('ResourceTable', t);

function entry(id: number, name: string, values: PbValue[], configs: object[] = values.map(() => ({}))): PbEntry {
  return { entry_id: { id }, name, visibility: {}, config_value: values.map((value, i) => ({ config: configs[i], value })) };
}
function oneType(name: string, entries: PbEntry[], typeId = 1): PbResourceTable {
  return { package: [{ package_id: { id: 0x7f }, package_name: 'com.example', type: [{ type_id: { id: typeId }, name, entry: entries }] }] };
}

function minimal(extra: Files = {}): Files {
  return { 'BundleConfig.pb': config(), 'base/manifest/AndroidManifest.xml': manifest(), 'base/dex/classes.dex': 'dex', ...extra };
}

async function messages(validator: Validator, files: Files, zipNames?: string[]): Promise<string[]> {
  return (await runValidators(view(files, zipNames), [validator])).map((p) => p.message);
}

describe('validate', () => {
  it('allValidators_minimalBundle_noProblems', async () => {
    expect(await runValidators(view(minimal()), ALL_VALIDATORS)).to.deep.equal([]);
  });

  describe('zip and layout (5.1)', () => {
    it('noDirectoryEntries_directoryEntry_reported', async () => {
      expect(await messages(v.noDirectoryEntries, minimal(), ['base/', 'BundleConfig.pb'])).to.deep.equal(["The bundle contains a directory entry: 'base/'."]);
    });
    it('noAbsolutePaths_leadingSlash_reported', async () => {
      expect(await messages(v.noAbsolutePaths, minimal(), ['/base/x'])).to.deep.equal(["The bundle contains an entry with an absolute path: '/base/x'."]);
    });
    it('noDotSegments_dotDot_reported', async () => {
      expect(await messages(v.noDotSegments, minimal(), ['base/root/../x', 'base/./y', 'base/a..b'])).to.deep.equal([
        "Path 'base/root/../x' has a '.' or '..' segment.",
        "Path 'base/./y' has a '.' or '..' segment.",
      ]);
    });
    it('uniquePaths_emptySegmentCollapse_reported', async () => {
      expect(await messages(v.uniquePaths, minimal(), ['base/root/a', 'base/root//a'])).to.deep.equal(["Two entries resolve to the same path 'base/root/a'."]);
    });
    it('bundleConfigPresent_missing_reported', async () => {
      const files = minimal();
      delete files['BundleConfig.pb'];
      expect(await messages(v.bundleConfigPresent, files)).to.deep.equal([
        "The archive doesn't seem to be an App Bundle, it is missing required file 'BundleConfig.pb'.",
      ]);
    });
    it('bundleConfigPresent_garbage_reported', async () => {
      const msgs = await messages(v.bundleConfigPresent, minimal({ 'BundleConfig.pb': new Uint8Array([0xff, 0xff, 0xff]) }));
      expect(msgs).to.have.length(1);
      expect(msgs[0]).to.match(/^'BundleConfig.pb' is not a valid BundleConfig proto: /);
    });
    it('baseModulePresent_onlyFeature_reported', async () => {
      expect(await messages(v.baseModulePresent, { 'BundleConfig.pb': config(), 'feature/manifest/AndroidManifest.xml': manifest() })).to.deep.equal([
        "The bundle has no 'base' module.",
      ]);
    });
    it('moduleName_invalidName_reported', async () => {
      expect(await messages(v.moduleName, minimal({ '1x/manifest/AndroidManifest.xml': manifest() }))).to.deep.equal([
        "Module name '1x' is invalid: it must match [a-zA-Z][a-zA-Z0-9_]*.",
      ]);
    });
    it('moduleManifestPresent_missingOrRootless_reported', async () => {
      expect(await messages(v.moduleManifestPresent, minimal({ 'other/dex/classes.dex': 'x' }))).to.deep.equal([
        "Module 'other' is missing mandatory file 'manifest/AndroidManifest.xml'.",
      ]);
      expect(await messages(v.moduleManifestPresent, minimal({ 'base/manifest/AndroidManifest.xml': encodeAapt('XmlNode', { text: 'x' }) }))).to.deep.equal([
        "The manifest of module 'base' has no root element.",
      ]);
    });
    it('moduleFileLayout_misplacedFiles_reportedEach', async () => {
      const msgs = await messages(v.moduleFileLayout, minimal({
        'base/protobuf.meta': 'x',
        'base/other/x': 'x',
        'base/dex/sub/classes.dex': 'x',
        'base/dex/foo.dex': 'x',
        'base/lib/x86/sub/a.so': 'x',
        'base/lib/sparc/a.so': 'x',
        'base/lib/x86/a.txt': 'x',
        'base/manifest/other.xml': 'x',
        'base/root/lib/a.so': 'x',
        'base/root/classes2.dex': 'x',
        'base/root/assets/ok': 'x',
        'base/lib/x86/wrap.sh': 'x',
        'base/native.pb': 'x',
      }));
      expect(msgs).to.deep.equal([
        "Module 'base': Module files can be only in pre-defined directories, but found 'protobuf.meta'.",
        "Module 'base': Module files can be only in pre-defined directories, but found 'other/x'.",
        "Module 'base': The dex files must be directly in 'dex/', but found 'dex/sub/classes.dex'.",
        "Module 'base': Files under 'dex/' must be named 'classes[0-9]*.dex', but found 'dex/foo.dex'.",
        "Module 'base': Native library files need to be in 'lib/<abi>/<file>', but found 'lib/x86/sub/a.so'.",
        "Module 'base': Unrecognized native library directory 'sparc' in 'lib/sparc/a.so'.",
        "Module 'base': Only '.so' files and 'wrap.sh' may be under 'lib/', but found 'lib/x86/a.txt'.",
        "Module 'base': Only 'AndroidManifest.xml' may be under 'manifest/', but found 'manifest/other.xml'.",
        "Module 'base': The path 'root/lib/a.so' under 'root/' is reserved.",
        "Module 'base': The path 'root/classes2.dex' under 'root/' is reserved.",
      ]);
    });
  });

  describe('manifest (5.2)', () => {
    const withManifest = (attrs: PbXmlAttribute[], children: PbXmlNode[] = []): Files => minimal({ 'base/manifest/AndroidManifest.xml': manifest(attrs, children) });
    const vc = intAttr('versionCode', 0x0101021b, 1);
    it('baseHasNoSplit_splitAttribute_reported', async () => {
      expect(await messages(v.baseHasNoSplit, withManifest([vc, { name: 'split', value: 'config.en' }]))).to.deep.equal([
        "The base module manifest must not declare a split name, but found split='config.en'.",
      ]);
    });
    it('versionCodePresent_missingOrHex_reported', async () => {
      expect(await messages(v.versionCodePresent, withManifest([]))).to.deep.equal([
        "The base module manifest has no 'android:versionCode' attribute (resource id 0x0101021b).",
      ]);
      const hex: PbXmlAttribute = { namespace_uri: ANDROID, name: 'versionCode', resource_id: 0x0101021b, value: '0x10', compiled_item: { prim: { int_hexadecimal_value: 16 } } };
      expect(await messages(v.versionCodePresent, withManifest([hex]))).to.deep.equal(["'android:versionCode' must be a decimal integer, but found '0x10'."]);
    });
    it('versionCodePresent_zero_accepted', async () => {
      expect(await messages(v.versionCodePresent, withManifest([intAttr('versionCode', 0x0101021b, 0)]))).to.deep.equal([]);
    });
    it('targetSandboxVersion_three_reported', async () => {
      expect(await messages(v.targetSandboxVersion, withManifest([vc, intAttr('targetSandboxVersion', 0x0101054c, 3)]))).to.deep.equal([
        "'android:targetSandboxVersion' is 3; the highest allowed is 2.",
      ]);
    });
    it('sdkRange_maxBelowMin_reported', async () => {
      const usesSdk = el('uses-sdk', [intAttr('minSdkVersion', 0x0101020c, 21), intAttr('maxSdkVersion', 0x01010271, 19)]);
      expect(await messages(v.sdkRange, withManifest([vc], [usesSdk]))).to.deep.equal(["'maxSdkVersion' (19) is lower than 'minSdkVersion' (21)."]);
      const negative = el('uses-sdk', [intAttr('minSdkVersion', 0x0101020c, -1)]);
      expect(await messages(v.sdkRange, withManifest([vc], [negative]))).to.deep.equal(["'minSdkVersion' must be non-negative, but is -1."]);
    });
    it('noUsesSdkLibrary_present_reported', async () => {
      const app = el('application', [], [el('uses-sdk-library', [{ namespace_uri: ANDROID, name: 'name', value: 'x' }])]);
      expect(await messages(v.noUsesSdkLibrary, withManifest([vc], [app]))).to.deep.equal([
        '<uses-sdk-library> is not allowed in an App Bundle manifest; declare runtime-enabled SDKs instead.',
      ]);
    });
    it('baseDelivery_onDemandConditionalUnfused_reported', async () => {
      const dist = el('module', [], [
        el('delivery', [], [el('on-demand', [], [], DIST), el('install-time', [], [el('conditions', [], [], DIST)], DIST)], DIST),
        el('fusing', [{ namespace_uri: DIST, name: 'include', compiled_item: { prim: { boolean_value: false } } }], [], DIST),
      ], DIST);
      expect(await messages(v.baseDelivery, withManifest([vc], [dist]))).to.deep.equal([
        'The base module cannot be delivered on demand.',
        'The base module cannot have install-time delivery conditions.',
        'The base module cannot be excluded from fusing.',
      ]);
    });
    it('baseDelivery_deliveryAndLegacyOnDemand_reported', async () => {
      const dist = el('module', [{ namespace_uri: DIST, name: 'onDemand', value: 'false' }], [el('delivery', [], [], DIST)], DIST);
      expect(await messages(v.baseDelivery, withManifest([vc], [dist]))).to.deep.equal([
        "Module 'base' uses both <dist:delivery> and the legacy 'dist:onDemand' attribute.",
      ]);
    });
    it('usesSplitTargets_unknownModule_reported', async () => {
      const us = el('uses-split', [{ namespace_uri: ANDROID, name: 'name', resource_id: 0x01010003, value: 'feature' }]);
      expect(await messages(v.usesSplitTargets, withManifest([vc], [us]))).to.deep.equal([
        "Module 'base' declares dependency on non-existent module 'feature'.",
      ]);
    });
  });

  describe('bundle config', () => {
    it('bundletoolVersion_emptyOrMalformed_reported', async () => {
      expect(await messages(v.bundletoolVersion, minimal({ 'BundleConfig.pb': config({ bundletool: { version: '1.18' } }) }))).to.deep.equal([
        "Invalid version in the BundleConfig.pb file: '1.18'.",
      ]);
      expect(await messages(v.bundletoolVersion, minimal({ 'BundleConfig.pb': config({ bundletool: { version: '1.18.1-dev' } }) }))).to.deep.equal([]);
    });
    it('uncompressedGlobs_badSyntax_reported', async () => {
      const c = config({ bundletool: { version: '1.18.1' }, compression: { uncompressed_glob: ['assets/[a/b]', 'a\\\\b', '{a,{b}}', 'ok/**.mp3', 'x\\'] } });
      expect(await messages(v.uncompressedGlobs, minimal({ 'BundleConfig.pb': c }))).to.deep.equal([
        "Invalid uncompressed glob 'assets/[a/b]': it has a \"/\" inside a character class.",
        "Invalid uncompressed glob 'a\\\\b': it contains a double backslash.",
        "Invalid uncompressed glob '{a,{b}}': it has nested groups.",
        "Invalid uncompressed glob 'x\\': it ends with an escape character.",
      ]);
    });
    it('splitDimensions_duplicateUnknownAndStripping_reported', async () => {
      // Unknown enum numbers cannot pass encodeMessage's verify: encode the plain object directly.
      const c = BundlePb.BundleConfig.encode({
        bundletool: { version: '1.18.1' },
        optimizations: { splits_config: { split_dimension: [{ value: 1 }, { value: 1 }, { value: 42 }, { value: 43, negate: true }, { value: 3, suffix_stripping: { enabled: true } }] } },
      }).finish();
      expect(await messages(v.splitDimensions, minimal({ 'BundleConfig.pb': c }))).to.deep.equal([
        'BundleConfig.pb contains duplicate split dimension 1.',
        'BundleConfig.pb contains an unrecognized split dimension 42.',
        'Suffix stripping is not supported for split dimension 3.',
      ]);
    });
    it('masterResources_unknownId_reported', async () => {
      const c = config({ bundletool: { version: '1.18.1' }, master_resources: { resource_ids: [0x7f010000, 0x7f010001] } });
      const t = table(oneType('string', [entry(0, 'a', [{ item: { str: { value: 'x' } } }])]));
      expect(await messages(v.masterResources, minimal({ 'BundleConfig.pb': c, 'base/resources.pb': t }))).to.deep.equal([
        'Master resource id 0x7f010001 is not in any module\'s resource table.',
      ]);
    });
  });

  describe('module files (5.2)', () => {
    it('dexContiguous_gapOrClasses1_reported', async () => {
      expect(await messages(v.dexContiguous, minimal({ 'base/dex/classes3.dex': 'x' }))).to.deep.equal([
        "Module 'base': expected dex file 'classes2.dex' is missing; dex files must be numbered without gaps.",
      ]);
      expect(await messages(v.dexContiguous, minimal({ 'base/dex/classes1.dex': 'x' }))).to.deep.equal(["Module 'base': invalid dex file name 'classes1.dex'."]);
    });
    it('dexOrNoCode_noDexWithoutHasCodeFalse_reported', async () => {
      const files = minimal();
      delete files['base/dex/classes.dex'];
      expect(await messages(v.dexOrNoCode, files)).to.deep.equal([
        "Module 'base' has no dex files but the attribute 'hasCode' is not set to false in the AndroidManifest.xml.",
      ]);
      files['base/manifest/AndroidManifest.xml'] = manifest(undefined, [el('application', [boolAttr('hasCode', 0x0101000c, false)])]);
      expect(await messages(v.dexOrNoCode, files)).to.deep.equal([]);
    });
    it('nativeTargeting_unlistedEmptyAndWrongAbi_reported', async () => {
      const n: NativeLibrariesMsg = { directory: [{ path: 'lib/x86', targeting: { abi: { alias: 5 } } }, { path: 'lib/mips', targeting: { abi: { alias: 6 } } }, { path: 'lib/x86_64', targeting: {} }] };
      const files = minimal({ 'base/native.pb': encodeMessage('NativeLibraries', n), 'base/lib/x86/a.so': 'x', 'base/lib/x86_64/a.so': 'x', 'base/lib/armeabi/a.so': 'x' });
      expect(await messages(v.nativeTargeting, files)).to.deep.equal([
        "Native directory 'lib/x86' is targeted at ABI 5, which is not its ABI.",
        "Native directory 'lib/mips' is listed in native.pb but holds no files.",
        "Native directory 'lib/x86_64' has no ABI targeting.",
        "Native directory 'lib/armeabi' holds files but is missing from native.pb.",
      ]);
    });
    it('assetsTargeting_badDirectoriesAndAssetsPb_reported', async () => {
      const a: AssetsMsg = { directory: [{ path: 'assets', targeting: {} }, { path: 'other', targeting: {} }, { path: 'assets/empty', targeting: {} }] };
      const files = minimal({
        'base/assets.pb': encodeMessage('Assets', a),
        'base/assets/a.txt': 'x',
        'base/assets/tex#tcf_astc/a.ktx': 'x',
        'base/assets/tex#foo_bar/a.ktx': 'x',
        'base/assets/#lang_en/a': 'x',
        'base/assets/i18n#lang_english/a': 'x',
        'base/assets/a#lang_en/b#lang_fr/c': 'x',
      });
      expect(await messages(v.assetsTargeting, files)).to.deep.equal([
        "Module 'base': Unrecognized key: 'foo' in targeted directory 'tex#foo_bar'.",
        "Module 'base': Cannot tokenize targeted directory '#lang_en'.",
        "Module 'base': Invalid value 'english' for key 'lang' in targeted directory 'i18n#lang_english'.",
        "Module 'base': Duplicate targeting by 'lang' in directory 'assets/a#lang_en/b#lang_fr'.",
        "Path of targeted assets directory must start with 'assets', but found 'other'.",
        "Targeted directory 'assets/empty' is empty.",
      ]);
    });
    it('abiParity_modulesDiffer_reported', async () => {
      const files = minimal({ 'base/lib/x86/a.so': 'x', 'feature/manifest/AndroidManifest.xml': manifest(), 'feature/lib/arm64-v8a/b.so': 'x' });
      expect(await messages(v.abiParity, files)).to.deep.equal([
        "Modules 'base' and 'feature' support different sets of ABIs: [lib/x86] and [lib/arm64-v8a].",
      ]);
    });
    it('archiveReservedEntries_reservedPath_reported', async () => {
      expect(await messages(v.archiveReservedEntries, minimal({ 'base/res/layout/com_android_vending_archive_splash_screen_layout.xml': 'x' }))).to.deep.equal([
        "Module 'base' contains 'res/layout/com_android_vending_archive_splash_screen_layout.xml', a path reserved by bundletool for archived apps.",
      ]);
    });
  });

  describe('resource table (5.2)', () => {
    const fileValue = (path: string, type = 3): PbValue => ({ item: { file: { path, type } } });
    it('resourceTablePresent_resFilesWithoutTable_reported', async () => {
      expect(await messages(v.resourceTablePresent, minimal({ 'base/res/raw/a': 'x' }))).to.deep.equal([
        "Module 'base' contains resource files but is missing a resource table.",
      ]);
    });
    it('resourceFileReferences_outsideMissingUnreferenced_reported', async () => {
      const t = table(oneType('raw', [entry(0, 'a', [fileValue('r/a', 0)]), entry(1, 'b', [fileValue('res/raw/b', 0)]), entry(2, 'c', [fileValue('res/raw/c', 0)])]));
      expect(await messages(v.resourceFileReferences, minimal({ 'base/resources.pb': t, 'base/res/raw/c': 'x', 'base/res/raw/d': 'x' }))).to.deep.equal([
        "Resource table of module 'base' references files outside 'res/': [r/a].",
        "Resource table of module 'base' contains references to non-existing files: [r/a, res/raw/b].",
        "Module 'base' contains resource files that are not referenced from the resource table: [res/raw/d].",
      ]);
    });
    it('resourceIds_duplicateAndMissingIds_reported', async () => {
      const t: PbResourceTable = {
        package: [{ package_id: { id: 0x7f }, package_name: 'p', type: [
          { type_id: { id: 1 }, name: 'string', entry: [entry(0, 'a', [{ item: { str: { value: 'x' } } }]), entry(0, 'b', [{ item: { str: { value: 'y' } } }])] },
          { type_id: {}, name: 'bool', entry: [] },
        ] }],
      };
      expect(await messages(v.resourceIds, minimal({ 'base/resources.pb': table(t) }))).to.deep.equal([
        'Duplicate resource id 0x7f010000 (string/b (0x7f010000)).',
        "Type 'bool' has an invalid or missing type id.",
      ]);
    });
    it('protoXmlFiles_binaryXmlAndUnparsable_reported', async () => {
      const t = table(oneType('layout', [entry(0, 'a', [fileValue('res/layout/a.xml')]), entry(1, 'b', [fileValue('res/layout/b.xml', 2)])]));
      const files = minimal({ 'base/resources.pb': t, 'base/res/layout/a.xml': encodeAapt('XmlNode', { text: 'only text' }), 'base/res/layout/b.xml': 'x' });
      expect(await messages(v.protoXmlFiles, files)).to.deep.equal([
        "'res/layout/a.xml' has no root element.",
        "Resource layout/b (0x7f010001) references 'res/layout/b.xml' as BINARY_XML, which a bundle cannot hold.",
      ]);
    });
  });

  describe('aapt2 (5.3)', () => {
    const str: PbValue = { item: { str: { value: 'x' } } };
    it('aapt2TypeNames_unknownType_reported', async () => {
      expect(await messages(v.aapt2TypeNames, minimal({ 'base/resources.pb': table(oneType('drawable.2', [entry(0, 'a', [str])])) }))).to.deep.equal([
        "Resource type 'drawable.2' is unknown to aapt2.",
      ]);
    });
    it('aapt2UniqueConfigs_sameConfigTwice_reported', async () => {
      const t = oneType('string', [entry(0, 'a', [str, str, str], [{ locale: 'pt' }, { locale: 'pt' }, {}])]);
      expect(await messages(v.aapt2UniqueConfigs, minimal({ 'base/resources.pb': table(t) }))).to.deep.equal([
        'Duplicate configuration in resource table for string/a (0x7f010000).',
      ]);
    });
    it('aapt2Locales_invalidTag_reported', async () => {
      const t = oneType('string', [entry(0, 'a', [str, str, str], [{ locale: 'pt-BR' }, { locale: 'b+sr+Latn' }, { locale: 'sr-Latn' }])]);
      expect(await messages(v.aapt2Locales, minimal({ 'base/resources.pb': table(t) }))).to.deep.equal(["Configuration has invalid locale 'b+sr+Latn'."]);
    });
    it('aapt2ValuesSet_unsetOneofs_reported', async () => {
      const t = oneType('string', [
        entry(0, 'a', [{}]),
        entry(1, 'b', [{ item: {} }]),
        entry(2, 'c', [{ compound_value: {} }]),
        entry(3, 'd', [{ item: { prim: {} } }]),
        entry(4, 'e', [{ item: { prim: { boolean_value: false } } }]),
        entry(5, 'f', [{ compound_value: { array: { element: [{ item: {} }] } } }]),
      ]);
      expect(await messages(v.aapt2ValuesSet, minimal({ 'base/resources.pb': table(t) }))).to.deep.equal([
        'Value of string/a (0x7f010000) would make aapt2 fail: unknown value.',
        'Value of string/b (0x7f010001) would make aapt2 fail: unknown item.',
        'Value of string/c (0x7f010002) would make aapt2 fail: unknown compound value: 0.',
        'Value of string/d (0x7f010003) would make aapt2 fail: Unexpected Primitive type.',
        'Value of string/f (0x7f010005) would make aapt2 fail: unknown item in array element.',
      ]);
    });
    it('aapt2References_badNameAndIdlessKey_reported', async () => {
      const t = oneType('style', [
        entry(0, 'a', [{ item: { ref: { id: 0x7f010000, name: 'not a name' } } }]),
        entry(1, 'b', [{ compound_value: { style: { parent: { id: 0x01030000 }, entry: [{ key: { name: 'attr/x' }, item: { prim: { int_decimal_value: 1 } } }] } } }]),
        entry(2, 'c', [{ item: { ref: { id: 0x7f010000, name: 'com.example:style/a' } } }]),
      ]);
      expect(await messages(v.aapt2References, minimal({ 'base/resources.pb': table(t) }))).to.deep.equal([
        "Reference in style/a (0x7f010000) has invalid resource name 'not a name'.",
        'The style key in style/b (0x7f010001) has no resource id.',
      ]);
    });
    it('aapt2Overlayables_indexOutOfRange_reported', async () => {
      const t = oneType('string', [{ ...entry(0, 'a', [str]), overlayable_item: { overlayable_idx: 1, policy: [1] } }]);
      t.overlayable = [{ name: 'o' }];
      expect(await messages(v.aapt2Overlayables, minimal({ 'base/resources.pb': table(t) }))).to.deep.equal([
        'Overlayable index of string/a (0x7f010000) is out of range.',
      ]);
    });
  });

  describe('validateBundle', () => {
    let tmp: TempDir;
    beforeEach(() => {
      tmp = new TempDir();
    });
    afterEach(() => tmp.cleanup());
    it('validateBundle_writtenMinimalBundle_noProblems', async () => {
      const path = tmp.file('m.aab');
      const w = await ZipWriter.create(path);
      for (const [name, data] of Object.entries(minimal())) await w.addBuffer(name, typeof data === 'string' ? Buffer.from(data) : data);
      await w.finish();
      expect(await validateBundle(path)).to.deep.equal([]);
    });
    it('validateBundle_notAZip_zipStructureProblem', async () => {
      expect(await validateBundle(tmp.file('x.aab', Buffer.from('definitely not a zip archive, no')))).to.deep.equal([
        { rule: 'zip-structure', message: 'The file is not a readable zip archive (NOT_A_ZIP: registro de fim do diretório central não encontrado).' },
      ]);
    });
  });
});
