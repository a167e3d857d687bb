import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { ConverterError, convertApk, validateBundle, type ConversionStage, type ConverterErrorCode } from '../src/index.js';
import { decodeMessage, type AssetsMsg, type BundleConfigMsg, type NativeLibrariesMsg } from '../src/proto/bundle.js';
import { ATTR } from '../src/bundle/layout.js';
import { attrById, decimalValue, decodeXmlNode } from '../src/validate/xml.js';
import { VERIFY_WORKER_FROM, ZipReader } from '../src/zip/index.js';
import { requireOracles } from './helpers/oracles.js';
import { buildZip, TempDir, tinyApkEntries, type BuildEntry } from './helpers/zipBuilder.js';
import { buildUniversalApk, validateBundle as bundletoolValidate } from './oracle/tools.js';

async function expectCode(p: Promise<unknown>, code: ConverterErrorCode): Promise<ConverterError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(ConverterError);
    expect((e as ConverterError).code, (e as ConverterError).detail).to.equal(code);
    return e as ConverterError;
  }
  throw new Error(`expected ${code}, nothing thrown`);
}

async function entryBytes(r: ZipReader, name: string): Promise<Buffer> {
  const e = r.get(name);
  if (!e) throw new Error(`missing ${name}`);
  return r.read(e);
}

describe('convertApk', () => {
  let tmp: TempDir;
  let apk: string;
  beforeEach(() => {
    tmp = new TempDir();
    apk = tmp.file('tiny.apk', buildZip(tinyApkEntries()));
  });
  afterEach(() => tmp.cleanup());

  it('convertApk_tinyApk_mapsEveryEntryPerFormat', async () => {
    const out = tmp.file('tiny.aab');
    await convertApk(apk, out);
    const r = await ZipReader.open(out);
    expect(r.entries.map((e) => e.name)).to.deep.equal([
      'BundleConfig.pb',
      'base/assets.pb',
      'base/assets/data/x.json',
      'base/assets/lib/arm64-v8a/notes.txt',
      'base/assets/sound.mp3',
      'base/dex/classes.dex',
      'base/lib/arm64-v8a/libfoo.so',
      'base/manifest/AndroidManifest.xml',
      'base/native.pb',
      'base/res/layout/main.xml',
      'base/resources.pb',
      'base/root/META-INF/services/com.example.Service',
      'base/root/kotlin/collections/x.kotlin_builtins',
    ]);
    const config = decodeMessage<BundleConfigMsg>('BundleConfig', await entryBytes(r, 'BundleConfig.pb'));
    expect(config.bundletool?.version).to.equal('1.18.1');
    expect(config.compression?.uncompressed_glob).to.deep.equal(['assets/sound.mp3']);
    expect(config.optimizations?.splits_config?.split_dimension).to.deep.equal([
      { value: 1, negate: false },
      { value: 2, negate: false },
      { value: 3, negate: false },
    ]);
    expect(config.optimizations?.uncompress_native_libraries).to.equal(undefined);
    const native = decodeMessage<NativeLibrariesMsg>('NativeLibraries', await entryBytes(r, 'base/native.pb'));
    expect(native).to.deep.equal({ directory: [{ path: 'lib/arm64-v8a', targeting: { abi: { alias: 3 } } }] });
    const assets = decodeMessage<AssetsMsg>('Assets', await entryBytes(r, 'base/assets.pb'));
    expect(assets).to.deep.equal({
      directory: [
        { path: 'assets', targeting: {} },
        { path: 'assets/data', targeting: {} },
        { path: 'assets/lib/arm64-v8a', targeting: {} },
      ],
    });
    const manifest = decodeXmlNode(await entryBytes(r, 'base/manifest/AndroidManifest.xml'));
    expect(manifest.element?.name).to.equal('manifest');
    expect(decodeXmlNode(await entryBytes(r, 'base/res/layout/main.xml')).element?.name).to.equal('LinearLayout');
    await r.close();
    expect(await validateBundle(out)).to.deep.equal([]);
  });

  it('convertApk_rawEntries_identicalCompressedBytesCrcAndMethod', async () => {
    const out = tmp.file('raw.aab');
    await convertApk(apk, out);
    const src = await ZipReader.open(apk);
    const dst = await ZipReader.open(out);
    for (const [from, to] of [['classes.dex', 'base/dex/classes.dex'], ['lib/arm64-v8a/libfoo.so', 'base/lib/arm64-v8a/libfoo.so'], ['assets/data/x.json', 'base/assets/data/x.json']]) {
      const a = src.get(from)!;
      const b = dst.get(to)!;
      expect([b.method, b.crc32, b.compressedSize, b.uncompressedSize]).to.deep.equal([a.method, a.crc32, a.compressedSize, a.uncompressedSize]);
      const ra: Buffer[] = [];
      const rb: Buffer[] = [];
      for await (const c of src.rawChunks(a)) ra.push(c);
      for await (const c of dst.rawChunks(b)) rb.push(c);
      expect(Buffer.concat(rb).equals(Buffer.concat(ra))).to.equal(true);
    }
    await src.close();
    await dst.close();
  });

  it('convertApk_tinyApk_reportsFactsCountsAndWarnings', async () => {
    const r = await convertApk(apk, tmp.file('r.aab'));
    expect(r.packageName).to.equal('com.example.tiny');
    expect([r.versionCode, r.minSdk, r.debuggable, r.dexCount, r.v1Signed]).to.deep.equal([1, 21, false, 1, true]);
    expect(r.abis).to.deep.equal(['arm64-v8a']);
    expect(r.entries).to.deep.equal({ copiedRaw: 7, converted: 3, dropped: 6, generated: 3 });
    expect(r.sizeIn).to.equal(readFileSync(apk).length);
    expect(r.sizeOut).to.equal(readFileSync(tmp.file('r.aab')).length);
    expect(r.warnings.map((w) => w.code).sort()).to.deep.equal(['DEX_GAP_DROPPED', 'NATIVE_FILES_MOVED', 'UNREFERENCED_RESOURCES_DROPPED']);
    const native = r.warnings.find((w) => w.code === 'NATIVE_FILES_MOVED')!;
    expect(native.detail).to.equal('1: lib/arm64-v8a/notes.txt');
    expect(r.durations.total).to.be.a('number');
  });

  describe('non-library files under lib/', () => {
    const so = Buffer.alloc(2048, 5);
    const entries = (): BuildEntry[] => [
      ...tinyApkEntries().filter((e) => !e.name.startsWith('lib/')),
      { name: 'lib/arm64-v8a/libfoo.so', data: so, method: 0 },
      { name: 'lib/arm64-v8a/libfoo.so.1', data: so, method: 0 },
      { name: 'lib/x86/config.json', data: '{"gpu":"on","gpu2":"on","gpu3":"on"}' },
      { name: 'lib/x86/clash.txt', data: 'from lib' },
      { name: 'lib/sparc/notes.txt', data: 'unknown abi' },
      { name: 'lib/x86/sub/notes.txt', data: 'nested' },
      { name: 'lib/notes.txt', data: 'top level' },
      // After the lib/ file it clashes with: the APK's own asset wins wherever it sits.
      { name: 'assets/lib/x86/clash.txt', data: 'from assets' },
    ];
    const moves: [string, string][] = [
      ['lib/arm64-v8a/libfoo.so.1', 'base/assets/lib/arm64-v8a/libfoo.so.1'],
      ['lib/x86/config.json', 'base/assets/lib/x86/config.json'],
      ['assets/lib/x86/clash.txt', 'base/assets/lib/x86/clash.txt'],
    ];
    let libApk: string;
    let aab: string;
    let report: Awaited<ReturnType<typeof convertApk>>;
    beforeEach(async () => {
      libApk = tmp.file('lib.apk', buildZip(entries()));
      aab = tmp.file('lib.aab');
      report = await convertApk(libApk, aab);
    });

    it('convertApk_libNonLibraryFiles_movedToAssetsRawAndReported', async () => {
      const src = await ZipReader.open(libApk);
      const dst = await ZipReader.open(aab);
      const names = dst.entries.map((e) => e.name);
      expect(names.filter((n) => n.includes('lib/'))).to.deep.equal([
        'base/assets/lib/arm64-v8a/libfoo.so.1',
        'base/assets/lib/x86/clash.txt',
        'base/assets/lib/x86/config.json',
        'base/lib/arm64-v8a/libfoo.so',
      ]);
      for (const [from, to] of moves) {
        const a = src.get(from)!;
        const b = dst.get(to)!;
        expect([b.method, b.crc32, b.compressedSize, b.uncompressedSize], to).to.deep.equal([a.method, a.crc32, a.compressedSize, a.uncompressedSize]);
        const ra: Buffer[] = [];
        const rb: Buffer[] = [];
        for await (const c of src.rawChunks(a)) ra.push(c);
        for await (const c of dst.rawChunks(b)) rb.push(c);
        expect(Buffer.concat(rb).equals(Buffer.concat(ra)), to).to.equal(true);
      }
      expect((await entryBytes(dst, 'base/assets/lib/x86/clash.txt')).toString()).to.equal('from assets');
      const config = decodeMessage<BundleConfigMsg>('BundleConfig', await entryBytes(dst, 'BundleConfig.pb'));
      // Stored in the APK, so its new name must be protected from compression.
      expect(config.compression?.uncompressed_glob).to.include('assets/lib/arm64-v8a/libfoo.so.1');
      const assets = decodeMessage<AssetsMsg>('Assets', await entryBytes(dst, 'base/assets.pb'));
      expect(assets.directory?.map((d) => d.path)).to.include.members(['assets/lib/arm64-v8a', 'assets/lib/x86']);
      const native = decodeMessage<NativeLibrariesMsg>('NativeLibraries', await entryBytes(dst, 'base/native.pb'));
      expect(native.directory?.map((d) => d.path)).to.deep.equal(['lib/arm64-v8a']);
      await src.close();
      await dst.close();

      const moved = report.warnings.find((w) => w.code === 'NATIVE_FILES_MOVED')!;
      expect(moved.message).to.equal(
        'Arquivos em lib/<abi>/ que não são bibliotecas nativas (.so ou wrap.sh) foram movidos para assets/lib/<abi>/, pois o AAB só aceita bibliotecas em lib/: o app pode lê-los com o AssetManager em lib/<abi>/<nome>.',
      );
      expect(moved.detail).to.equal('2: lib/arm64-v8a/libfoo.so.1, lib/x86/config.json');
      const dropped = report.warnings.find((w) => w.code === 'NATIVE_FILES_DROPPED')!;
      expect(dropped.message).to.equal('Arquivos em lib/ que não são bibliotecas nativas (.so ou wrap.sh) de uma ABI conhecida foram descartados: o AAB não tem onde guardá-los.');
      expect(dropped.detail).to.equal('4: lib/sparc/notes.txt, lib/x86/sub/notes.txt, lib/notes.txt, lib/x86/clash.txt');
      expect(report.abis).to.deep.equal(['arm64-v8a']);
      expect(await validateBundle(aab)).to.deep.equal([]);
    });

    it('convertApk_libNonLibraryFiles_bundletoolValidatesAndUniversalApkHasThemAsAssets', async function () {
      this.timeout(120_000);
      const o = requireOracles(this, 'java', 'bundletoolJar', 'aapt2');
      await bundletoolValidate(o, aab);
      const universal = await buildUniversalApk(o, aab, tmp.file('universal'));
      const u = await ZipReader.open(universal);
      expect((await entryBytes(u, 'assets/lib/x86/config.json')).toString()).to.equal('{"gpu":"on","gpu2":"on","gpu3":"on"}');
      expect((await entryBytes(u, 'assets/lib/arm64-v8a/libfoo.so.1')).equals(so)).to.equal(true);
      expect((await entryBytes(u, 'assets/lib/x86/clash.txt')).toString()).to.equal('from assets');
      expect(u.get('lib/x86/config.json')).to.equal(undefined);
      await u.close();
    });
  });

  it('convertApk_sameApkTwice_identicalBytes', async () => {
    await convertApk(apk, tmp.file('1.aab'));
    await new Promise((res) => setTimeout(res, 1100));
    await convertApk(apk, tmp.file('2.aab'));
    expect(readFileSync(tmp.file('1.aab')).equals(readFileSync(tmp.file('2.aab')))).to.equal(true);
  });

  it('convertApk_outputExists_outputExistsAndFileUntouched', async () => {
    const out = tmp.file('exists.aab', Buffer.from('keep me'));
    await expectCode(convertApk(apk, out), 'OUTPUT_EXISTS');
    expect(readFileSync(out, 'utf8')).to.equal('keep me');
    await convertApk(apk, out, { overwrite: true });
    expect(readFileSync(out).readUInt32LE(0)).to.equal(0x04034b50);
  });

  it('convertApk_overwriteWithAnApkItRefuses_oldOutputKept', async () => {
    const out = tmp.file('kept.aab', Buffer.from('keep me'));
    await expectCode(convertApk(tmp.file('bad.apk', Buffer.from('not a zip at all, just text')), out, { overwrite: true }), 'NOT_A_ZIP');
    expect(readFileSync(out, 'utf8')).to.equal('keep me');
  });

  it('convertApk_overwriteAbortedWhileWriting_oldOutputKept', async () => {
    // The old file is replaced only by the finished one (a rename): a run stopped half-way loses nothing.
    const ctl = new AbortController();
    const out = tmp.file('kept.aab', Buffer.from('keep me'));
    const run = convertApk(apk, out, { overwrite: true, signal: ctl.signal, onProgress: (stage, f) => stage === 'writing' && f > 0 && ctl.abort() });
    await expectCode(run, 'ABORTED');
    expect(readFileSync(out, 'utf8')).to.equal('keep me');
  });

  it('convertApk_abortedWhileWriting_abortedAndNoFilesLeft', async () => {
    const ctl = new AbortController();
    const out = tmp.file('abort.aab');
    await expectCode(
      convertApk(apk, out, {
        signal: ctl.signal,
        onProgress: (stage, f) => {
          if (stage === 'writing' && f > 0) ctl.abort();
        },
      }),
      'ABORTED',
    );
    expect(readdirSync(tmp.path).sort()).to.deep.equal(['tiny.apk']);
  });

  it('convertApk_signalAlreadyAborted_abortedBeforeReading', async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expectCode(convertApk(apk, tmp.file('a.aab'), { signal: ctl.signal }), 'ABORTED');
    expect(existsSync(tmp.file('a.aab'))).to.equal(false);
  });

  it('convertApk_corruptEntryFoundWhileWriting_corruptEntryAndNoPartial', async () => {
    const entries: BuildEntry[] = tinyApkEntries().map((e) => (e.name === 'classes.dex' ? { ...e, cd: { crc: 1 }, local: { crc: 1 } } : e));
    const bad = tmp.file('bad.apk', buildZip(entries));
    await expectCode(convertApk(bad, tmp.file('bad.aab')), 'CORRUPT_ENTRY');
    expect(readdirSync(tmp.path).sort()).to.deep.equal(['bad.apk', 'tiny.apk']);
  });

  describe('an APK whose raw copies a verifier thread proves', () => {
    /** The tiny APK with more deflated bytes than VERIFY_WORKER_FROM, and a stored asset (`badCrc`: declared with a wrong CRC). */
    function largeApk(name: string, badCrc: boolean): string {
      const stored: BuildEntry = { name: 'assets/media/clip.bin', data: randomBytes(300_000), method: 0, ...(badCrc ? { cd: { crc: 1 }, local: { crc: 1 } } : {}) };
      const big: BuildEntry = { name: 'assets/media/level.bin', data: randomBytes(VERIFY_WORKER_FROM + 1_000_000) };
      return tmp.file(name, buildZip([...tinyApkEntries(), big, stored]));
    }
    it('convertApk_largeApk_sha256OutIsTheWrittenFiles', async () => {
      const out = tmp.file('large.aab');
      const report = await convertApk(largeApk('large.apk', false), out);
      expect(report.sha256Out).to.equal(createHash('sha256').update(readFileSync(out)).digest('hex'));
      expect(report.sizeOut).to.equal(readFileSync(out).length);
    });
    it('convertApk_largeApkStoredEntryWithWrongCrc_corruptEntryAndNoPartial', async () => {
      await expectCode(convertApk(largeApk('lying.apk', true), tmp.file('lying.aab')), 'CORRUPT_ENTRY');
      expect(readdirSync(tmp.path).sort()).to.deep.equal(['lying.apk', 'tiny.apk']);
    });
  });

  it('convertApk_localHeaderDisagrees_entryHeaderMismatchBeforeWriting', async () => {
    const entries: BuildEntry[] = tinyApkEntries().map((e) => (e.name === 'assets/data/x.json' ? { ...e, local: { name: 'assets/data/y.json' } } : e));
    const stages = new Set<ConversionStage>();
    await expectCode(convertApk(tmp.file('h.apk', buildZip(entries)), tmp.file('h.aab'), { onProgress: (s) => stages.add(s) }), 'ENTRY_HEADER_MISMATCH');
    expect(stages.has('writing')).to.equal(false);
  });

  it('convertApk_progress_stagesInOrderAndMonotonic', async () => {
    const seen: [ConversionStage, number][] = [];
    await convertApk(apk, tmp.file('p.aab'), { onProgress: (s, f) => seen.push([s, f]) });
    const order = [...new Set(seen.map(([s]) => s))];
    expect(order).to.deep.equal(['reading', 'manifest', 'resources', 'validating', 'writing', 'done']);
    for (const stage of order) {
      const fs = seen.filter(([s]) => s === stage).map(([, f]) => f);
      expect(fs[0]).to.equal(0);
      expect(fs[fs.length - 1]).to.equal(1);
      for (let i = 1; i < fs.length; i++) expect(fs[i]).to.be.greaterThan(fs[i - 1]);
    }
  });

  it('convertApk_logs_infoPerStageAndWarnings', async () => {
    const logs: string[] = [];
    await convertApk(apk, tmp.file('l.aab'), { onLog: (e) => logs.push(`${e.level}:${e.step}`) });
    expect(logs).to.include.members(['info:reading', 'info:manifest', 'info:resources', 'info:validating', 'info:writing', 'warn:resources']);
  });

  it('convertApk_versionAndSplitOptions_appliedToManifestAndConfig', async () => {
    const out = tmp.file('o.aab');
    const r = await convertApk(apk, out, { versionCode: 42, versionName: '4.2', splits: { language: false } });
    expect([r.versionCode, r.versionName]).to.deep.equal([42, '4.2']);
    const z = await ZipReader.open(out);
    const manifest = decodeXmlNode(await entryBytes(z, 'base/manifest/AndroidManifest.xml'));
    expect(decimalValue(attrById(manifest.element, ATTR.versionCode))).to.equal(42);
    const config = decodeMessage<BundleConfigMsg>('BundleConfig', await entryBytes(z, 'BundleConfig.pb'));
    expect(config.optimizations?.splits_config?.split_dimension?.[2]).to.deep.equal({ value: 3, negate: true });
    await z.close();
  });

  it('convertApk_badOptions_invalidOptions', async () => {
    await expectCode(convertApk(apk, tmp.file('x.aab'), { versionCode: 0 }), 'INVALID_OPTIONS');
    await expectCode(convertApk(apk, tmp.file('x.aab'), { versionCode: 1.5 }), 'INVALID_OPTIONS');
    await expectCode(convertApk(apk, tmp.file('x.aab'), { versionName: ' ' }), 'INVALID_OPTIONS');
    await expectCode(convertApk(apk, apk, { overwrite: true }), 'INVALID_OPTIONS');
  });

  it('convertApk_configSplitApk_notABaseApk', async () => {
    const split = tmp.file('split.apk', buildZip(tinyApkEntries({ versionCode: 1, split: 'config.xxhdpi' })));
    await expectCode(convertApk(split, tmp.file('s.aab')), 'NOT_A_BASE_APK');
    expect(existsSync(tmp.file('s.aab'))).to.equal(false);
  });

  it('convertApk_noManifest_missingManifest', async () => {
    const none = tmp.file('none.apk', buildZip(tinyApkEntries().filter((e) => e.name !== 'AndroidManifest.xml')));
    await expectCode(convertApk(none, tmp.file('n.aab')), 'MISSING_MANIFEST');
  });

  it('convertApk_textManifest_badManifest', async () => {
    const entries = tinyApkEntries().map((e) => (e.name === 'AndroidManifest.xml' ? { ...e, data: '<manifest/>' } : e));
    await expectCode(convertApk(tmp.file('t.apk', buildZip(entries)), tmp.file('t.aab')), 'BAD_MANIFEST');
  });

  it('convertApk_notAZip_notAZip', async () => {
    await expectCode(convertApk(tmp.file('r.apk', Buffer.from('hello, not a zip at all, not at all!')), tmp.file('r.aab')), 'NOT_A_ZIP');
  });

  it('convertApk_duplicateEntries_duplicateEntry', async () => {
    const entries = [...tinyApkEntries(), { name: 'assets//sound.mp3', data: 'again' }];
    await expectCode(convertApk(tmp.file('d.apk', buildZip(entries)), tmp.file('d.aab')), 'DUPLICATE_ENTRY');
  });

  it('convertApk_noDex_hasCodeFalseAddedWithWarning', async () => {
    const entries = tinyApkEntries().filter((e) => !e.name.endsWith('.dex'));
    const out = tmp.file('nodex.aab');
    const r = await convertApk(tmp.file('nodex.apk', buildZip(entries)), out);
    expect(r.warnings.map((w) => w.code)).to.include('HAS_CODE_SET_FALSE');
    expect(await validateBundle(out)).to.deep.equal([]);
  });

  it('convertApk_deflatedNativeLibs_uncompressNativeLibrariesDisabled', async () => {
    const entries = tinyApkEntries().map((e) => (e.name.endsWith('.so') ? { ...e, method: 8 as const } : e));
    const out = tmp.file('so.aab');
    writeFileSync(tmp.file('so.apk'), buildZip(entries));
    await convertApk(tmp.file('so.apk'), out);
    const z = await ZipReader.open(out);
    const config = decodeMessage<BundleConfigMsg>('BundleConfig', await entryBytes(z, 'BundleConfig.pb'));
    expect(config.optimizations?.uncompress_native_libraries).to.deep.equal({ enabled: false });
    await z.close();
  });
});
