import { expect } from 'chai';
import { buildBundleConfig, literalGlob } from '../src/bundle/bundleConfig.js';
import { routeEntries } from '../src/bundle/collect.js';
import { dropDanglingFileReferences } from '../src/bundle/dangling.js';
import { ensureNoCode } from '../src/bundle/manifestFix.js';
import { contiguousDex, routeEntry, type EntryRoute } from '../src/bundle/mapping.js';
import { buildAssetsConfig, buildNativeConfig } from '../src/bundle/targeting.js';
import { AaptPb, encodeAapt, type PbResourceTable } from '../src/proto/aapt.js';
import { globSyntaxError } from '../src/validate/glob.js';
import type { ZipReader } from '../src/zip/index.js';
import { application, attrById, booleanValue, decodeXmlNode } from '../src/validate/xml.js';

describe('bundle', () => {
  describe('routeEntry', () => {
    const cases: [string, EntryRoute][] = [
      ['AndroidManifest.xml', { kind: 'manifest' }],
      ['resources.arsc', { kind: 'resource-table' }],
      ['classes.dex', { kind: 'dex', index: 1, path: 'dex/classes.dex' }],
      ['classes12.dex', { kind: 'dex', index: 12, path: 'dex/classes12.dex' }],
      ['classes1.dex', { kind: 'drop', reason: 'reserved-root' }],
      ['classes02.dex', { kind: 'drop', reason: 'reserved-root' }],
      ['lib/classes.dex', { kind: 'drop', reason: 'lib-unrepresentable' }],
      ['secondary/classes.dex', { kind: 'root', path: 'root/secondary/classes.dex' }],
      ['res/layout/main.xml', { kind: 'res', path: 'res/layout/main.xml' }],
      ['assets/www/index.html', { kind: 'asset', path: 'assets/www/index.html' }],
      ['assets/tex#tcf_astc/a.ktx', { kind: 'drop', reason: 'asset-targeting-name' }],
      ['assets/file#1.txt', { kind: 'asset', path: 'assets/file#1.txt' }],
      ['lib/arm64-v8a/libfoo.so', { kind: 'native-lib', abi: 'arm64-v8a', path: 'lib/arm64-v8a/libfoo.so' }],
      ['lib/x86/wrap.sh', { kind: 'native-lib', abi: 'x86', path: 'lib/x86/wrap.sh' }],
      ['lib/arm64-v8a-hwasan/libfoo.so', { kind: 'native-lib', abi: 'arm64-v8a-hwasan', path: 'lib/arm64-v8a-hwasan/libfoo.so' }],
      ['lib/armeabi-v7a/libfoo.so.1', { kind: 'lib-to-asset', abi: 'armeabi-v7a', path: 'assets/lib/armeabi-v7a/libfoo.so.1' }],
      ['lib/x86/config.json', { kind: 'lib-to-asset', abi: 'x86', path: 'assets/lib/x86/config.json' }],
      ['lib/arm64-v8a-hwasan/wrap.sh.bak', { kind: 'lib-to-asset', abi: 'arm64-v8a-hwasan', path: 'assets/lib/arm64-v8a-hwasan/wrap.sh.bak' }],
      ['lib/sparc/libfoo.so', { kind: 'drop', reason: 'lib-unrepresentable' }],
      ['lib/sparc/config.json', { kind: 'drop', reason: 'lib-unrepresentable' }],
      ['lib/x86/sub/libfoo.so', { kind: 'drop', reason: 'lib-unrepresentable' }],
      ['lib/x86/sub/config.json', { kind: 'drop', reason: 'lib-unrepresentable' }],
      ['lib/config.json', { kind: 'drop', reason: 'lib-unrepresentable' }],
      ['META-INF/MANIFEST.MF', { kind: 'drop', reason: 'signature' }],
      ['META-INF/CERT.SF', { kind: 'drop', reason: 'signature' }],
      ['META-INF/cert.rsa', { kind: 'drop', reason: 'signature' }],
      ['META-INF/KEY.EC', { kind: 'drop', reason: 'signature' }],
      ['META-INF/X.DSA', { kind: 'drop', reason: 'signature' }],
      ['META-INF/SIG-FOO', { kind: 'drop', reason: 'signature' }],
      ['META-INF/BNDLTOOL.SF', { kind: 'drop', reason: 'signature' }],
      ['META-INF/services/a.B', { kind: 'root', path: 'root/META-INF/services/a.B' }],
      ['META-INF/sub/CERT.SF', { kind: 'root', path: 'root/META-INF/sub/CERT.SF' }],
      ['META-INF/androidx.core_core.version', { kind: 'root', path: 'root/META-INF/androidx.core_core.version' }],
      ['stamp-cert-sha256', { kind: 'drop', reason: 'source-stamp' }],
      ['com/example/A.class', { kind: 'drop', reason: 'class-file' }],
      ['kotlin/kotlin.kotlin_builtins', { kind: 'root', path: 'root/kotlin/kotlin.kotlin_builtins' }],
      ['okhttp3/internal/publicsuffix/publicsuffixes.gz', { kind: 'root', path: 'root/okhttp3/internal/publicsuffix/publicsuffixes.gz' }],
      ['DebugProbesKt.bin', { kind: 'root', path: 'root/DebugProbesKt.bin' }],
      ['resources.pb', { kind: 'drop', reason: 'reserved-root' }],
      ['lib', { kind: 'drop', reason: 'reserved-root' }],
      ['res', { kind: 'drop', reason: 'reserved-root' }],
      ['assets', { kind: 'root', path: 'root/assets' }],
      ['foo/AndroidManifest.xml', { kind: 'root', path: 'root/foo/AndroidManifest.xml' }],
    ];
    for (const [name, route] of cases) {
      it(`routeEntry_${name.replace(/[^a-zA-Z0-9]+/g, '_')}_${route.kind}`, () => {
        expect(routeEntry(name)).to.deep.equal(route);
      });
    }
    it('routeEntries_libFileWhoseAssetExists_droppedOtherwiseMoved', () => {
      // The clashing asset comes after the lib/ file in the zip: the decision must not depend on order.
      const names = ['lib/x86/a.txt', 'lib/x86/b.txt', 'assets/lib/x86/b.txt', 'lib/x86/libz.so', 'lib/sparc/c.txt'];
      const reader = { entries: names.map((name) => ({ name, isDirectory: false, method: 8 })) } as unknown as ZipReader;
      const r = routeEntries(reader);
      expect([...r.movedLibFiles]).to.deep.equal([['lib/x86/a.txt', 'assets/lib/x86/a.txt']]);
      expect(r.copies.get('assets/lib/x86/a.txt')?.name).to.equal('lib/x86/a.txt');
      expect(r.copies.get('assets/lib/x86/b.txt')?.name).to.equal('assets/lib/x86/b.txt');
      expect(r.assetPaths.sort()).to.deep.equal(['assets/lib/x86/a.txt', 'assets/lib/x86/b.txt']);
      expect(r.drops.get('lib-unrepresentable')).to.deep.equal(['lib/sparc/c.txt', 'lib/x86/b.txt']);
      expect([...r.abis]).to.deep.equal(['x86']);
    });
    it('routeEntry_directory_dropped', () => {
      expect(routeEntry('res', true)).to.deep.equal({ kind: 'drop', reason: 'directory' });
    });
  });

  describe('contiguousDex', () => {
    it('contiguousDex_gapAfterTwo_keepsPrefixDropsRest', () => {
      expect(contiguousDex([4, 1, 2])).to.deep.equal({ kept: [1, 2], dropped: [4] });
    });
    it('contiguousDex_noClassesDex_dropsAll', () => {
      expect(contiguousDex([2, 3])).to.deep.equal({ kept: [], dropped: [2, 3] });
    });
  });

  describe('bundle config', () => {
    it('literalGlob_specialCharacters_escapedAndCompiles', () => {
      const g = literalGlob('assets/a*b?[c]{d,e}.mp3');
      expect(g).to.equal('assets/a\\*b\\?\\[c\\]\\{d\\,e\\}.mp3');
      expect(globSyntaxError(g!)).to.equal(undefined);
    });
    it('literalGlob_backslashInPath_undefined', () => {
      expect(literalGlob('assets/a\\b')).to.equal(undefined);
    });
    it('buildBundleConfig_storedEntries_globsExceptSoArscManifest', () => {
      const { config, unglobbable } = buildBundleConfig({
        storedPaths: ['res/raw/beep.ogg', 'assets/a.mp3', 'lib/x86/libz.so', 'classes.dex', 'resources.arsc', 'AndroidManifest.xml', 'x\\y'],
        nativeLibs: 'all-stored',
        dex: 'some-deflated',
      });
      expect(config.compression?.uncompressed_glob).to.deep.equal(['assets/a.mp3', 'classes.dex', 'res/raw/beep.ogg']);
      expect(unglobbable).to.deep.equal(['x\\y']);
      expect(config.bundletool?.version).to.equal('1.18.1');
      expect(config.optimizations?.uncompress_native_libraries).to.equal(undefined);
      expect(config.optimizations?.uncompress_dex_files).to.equal(undefined);
    });
    it('buildBundleConfig_extractNativeLibsTrue_uncompressedLibsDisabled', () => {
      const { config } = buildBundleConfig({ storedPaths: [], nativeLibs: 'all-stored', extractNativeLibs: true, dex: 'all-stored' });
      expect(config.optimizations?.uncompress_native_libraries).to.deep.equal({ enabled: false });
      expect(config.optimizations?.uncompress_dex_files).to.deep.equal({ enabled: true });
      expect(config.compression).to.equal(undefined);
    });
    it('buildBundleConfig_splitsDisabled_negatedDimensions', () => {
      const { config } = buildBundleConfig({ storedPaths: [], nativeLibs: 'none', dex: 'none' }, { abi: false, density: true, language: false });
      expect(config.optimizations?.splits_config?.split_dimension).to.deep.equal([
        { value: 1, negate: true },
        { value: 2, negate: false },
        { value: 3, negate: true },
      ]);
    });
  });

  describe('targeting', () => {
    it('buildAssetsConfig_nestedFiles_oneEntryPerParentDirectory', () => {
      expect(buildAssetsConfig(['assets/a.txt', 'assets/fonts/b.ttf', 'assets/fonts/c.ttf'])).to.deep.equal({
        directory: [{ path: 'assets', targeting: {} }, { path: 'assets/fonts', targeting: {} }],
      });
      expect(buildAssetsConfig([])).to.equal(undefined);
    });
    it('buildNativeConfig_abis_aliasAndHwasanSanitizer', () => {
      expect(buildNativeConfig(['x86', 'arm64-v8a-hwasan', 'x86'])).to.deep.equal({
        directory: [
          { path: 'lib/arm64-v8a-hwasan', targeting: { abi: { alias: 3 }, sanitizer: { alias: 1 } } },
          { path: 'lib/x86', targeting: { abi: { alias: 4 } } },
        ],
      });
    });
  });

  describe('repairs', () => {
    it('ensureNoCode_applicationWithoutHasCode_addsFalseInIdOrder', () => {
      const pb = encodeAapt('XmlNode', {
        element: {
          name: 'manifest',
          child: [{ element: { name: 'application', attribute: [{ name: 'label', resource_id: 0x01010001, value: 'x' }, { name: 'process', resource_id: 0x01010011, value: 'y' }] } }],
        },
      });
      const node = decodeXmlNode(pb);
      expect(ensureNoCode(node)).to.equal(true);
      const app = application(decodeXmlNode(encodeAapt('XmlNode', node)));
      expect(app?.attribute?.map((a) => a.name)).to.deep.equal(['label', 'hasCode', 'process']);
      expect(booleanValue(attrById(app, 0x0101000c))).to.equal(false);
    });
    it('ensureNoCode_alreadyFalse_unchanged', () => {
      const pb = encodeAapt('XmlNode', {
        element: { name: 'manifest', child: [{ element: { name: 'application', attribute: [{ name: 'hasCode', resource_id: 0x0101000c, compiled_item: { prim: { boolean_value: false } } }] } }] },
      });
      const node = decodeXmlNode(pb);
      expect(ensureNoCode(node)).to.equal(false);
      expect(Buffer.from(encodeAapt('XmlNode', node)).equals(Buffer.from(pb))).to.equal(true);
    });
    it('ensureNoCode_noApplication_addsOne', () => {
      const node = decodeXmlNode(encodeAapt('XmlNode', { element: { name: 'manifest' } }));
      expect(ensureNoCode(node)).to.equal(true);
      const app = application(decodeXmlNode(encodeAapt('XmlNode', node)));
      expect(booleanValue(attrById(app, 0x0101000c))).to.equal(false);
    });
    it('dropDanglingFileReferences_missingFile_valueAndEmptyEntryRemoved', () => {
      const table: PbResourceTable = {
        package: [{
          package_id: { id: 0x7f },
          package_name: 'p',
          type: [{
            type_id: { id: 1 },
            name: 'drawable',
            entry: [
              { entry_id: { id: 0 }, name: 'gone', visibility: {}, config_value: [{ config: {}, value: { item: { file: { path: 'res/drawable/gone.png', type: 1 } } } }] },
              { entry_id: { id: 1 }, name: 'kept', visibility: {}, config_value: [
                { config: {}, value: { item: { file: { path: 'res/drawable/kept.png', type: 1 } } } },
                { config: { density: 480 }, value: { item: { file: { path: 'res/drawable-xxhdpi/gone.png', type: 1 } } } },
              ] },
            ],
          }],
        }],
      };
      const out = dropDanglingFileReferences(encodeAapt('ResourceTable', table), new Set(['res/drawable/gone.png', 'res/drawable-xxhdpi/gone.png']));
      const decoded = AaptPb.ResourceTable.toObject(AaptPb.ResourceTable.decode(out)) as PbResourceTable;
      const entries = decoded.package[0].type[0].entry;
      expect(entries.map((e) => e.name)).to.deep.equal(['kept']);
      expect(entries[0].config_value.map((c) => c.value.item?.file?.path)).to.deep.equal(['res/drawable/kept.png']);
    });
  });
});
