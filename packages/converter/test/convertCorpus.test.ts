/**
 * Every corpus APK converts, passes every validator of docs/aab-format.md (its "Validation"
 * sections) and reports what the corpus manifest says of it. (Google's tools are run over the same
 * output by roundtrip.test.ts.)
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { convertApk, inspectApk, validateBundle } from '../src/index.js';
import { listCorpus, requireCorpus } from './helpers/corpus.js';
import { TempDir } from './helpers/zipBuilder.js';

describe('convertApk over the corpus', function () {
  this.timeout(120_000);
  let tmp: TempDir;
  before(() => {
    tmp = new TempDir();
  });
  after(() => tmp.cleanup());

  const apks = listCorpus();
  if (!apks || apks.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
    return;
  }

  for (const apk of apks) {
    it(`convertApk_${apk.name}_validBundleAndMatchingFacts`, async () => {
      const out = tmp.file(`${apk.name}.aab`);
      const report = await convertApk(apk.path, out, { overwrite: true });
      expect(await validateBundle(out)).to.deep.equal([]);
      expect(report.packageName).to.equal(apk.packageName);
      if (/^\d+$/.test(apk.versionCode)) expect(report.versionCode).to.equal(Number(apk.versionCode));
      expect(report.abis).to.deep.equal([...apk.abis].sort());
      expect(report.dexCount).to.equal(apk.dexCount);
      const info = await inspectApk(apk.path);
      expect([info.packageName, info.abis, info.locales, info.densities, info.dexCount]).to.deep.equal([
        report.packageName,
        report.abis,
        report.locales,
        report.densities,
        report.dexCount,
      ]);
    });
  }

  it('convertApk_corpusApkTwice_identicalBytes', async () => {
    const apk = apks.find((a) => a.name === 'ag-weardrawers') ?? apks[0];
    await convertApk(apk.path, tmp.file('det1.aab'));
    await convertApk(apk.path, tmp.file('det2.aab'));
    expect(readFileSync(tmp.file('det1.aab')).equals(readFileSync(tmp.file('det2.aab')))).to.equal(true);
  });
});
