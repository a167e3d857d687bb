import { expect } from 'chai';
import { ConverterError, inspectApk } from '../src/index.js';
import { buildZip, TempDir, tinyApkEntries } from './helpers/zipBuilder.js';

describe('inspectApk', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  it('inspectApk_tinyApk_factsWithoutWriting', async () => {
    const apk = tmp.file('tiny.apk', buildZip(tinyApkEntries({ versionCode: 7, minSdk: 24, debuggable: true })));
    const info = await inspectApk(apk);
    expect(info).to.deep.equal({
      packageName: 'com.example.tiny',
      versionCode: 7,
      minSdk: 24,
      debuggable: true,
      abis: ['arm64-v8a'],
      locales: [],
      densities: [],
      dexCount: 1,
      entryCount: 16,
      sizeBytes: buildZip(tinyApkEntries({ versionCode: 7, minSdk: 24, debuggable: true })).length,
      hasResourceTable: true,
      v1Signed: true,
      container: 'apk',
      modules: [{ name: 'base', kind: 'base', configs: [] }],
      splits: [],
      obbs: [],
      ignored: [],
    });
  });

  it('inspectApk_configSplit_reportsWithoutRefusing', async () => {
    const apk = tmp.file('split.apk', buildZip(tinyApkEntries({ versionCode: 1, split: 'config.en' })));
    const info = await inspectApk(apk);
    expect([info.packageName, info.split, info.modules]).to.deep.equal(['com.example.tiny', 'config.en', []]);
  });

  it('inspectApk_noManifest_missingManifest', async () => {
    const apk = tmp.file('none.apk', buildZip(tinyApkEntries().filter((e) => e.name !== 'AndroidManifest.xml')));
    const err = await inspectApk(apk).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ConverterError).with.property('code', 'MISSING_MANIFEST');
  });
});
