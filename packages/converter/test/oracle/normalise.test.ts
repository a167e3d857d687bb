import { expect } from 'chai';
import { firstDifference, toLines } from './diff.js';
import { normaliseResourceDump } from './resourceDump.js';
import { compareEntries, droppableEntries, entryReported, isBinaryXml, movedEntries, referencedFiles, repairAllowance } from './roundTrip.js';
import { collapseTextWhitespace, normaliseXmlDump, parseAttribute, parseXmlTree, printXmlTree, stripRawOfTypedValue } from './xmlTree.js';
import { ZipArchive, ZipWriter } from './zip.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCorpusManifest } from '../helpers/corpus.js';
import { parseBadging } from './badging.js';

const ANDROID = 'http://schemas.android.com/apk/res/android';

describe('oracle: firstDifference', () => {
  it('firstDifference_equalLines_null', () => {
    expect(firstDifference(['a', 'b'], ['a', 'b'])).to.equal(null);
  });

  it('firstDifference_changedLine_showsContextAndBothSides', () => {
    const d = firstDifference(['a', 'b', 'c', 'd'], ['a', 'b', 'X', 'd'], { context: 1, show: 1 });
    expect(d?.index).to.equal(2);
    expect(d?.text).to.equal('first difference at line 3 (- expected, + actual):\n    b\n  - c\n  + X');
  });

  it('firstDifference_shorterActual_saysWhereItEnds', () => {
    const d = firstDifference(['a', 'b'], ['a'], { context: 0 });
    expect(d?.text).to.contain('  - b').and.contain('<end of actual, 1 lines>');
  });

  it('toLines_trailingNewline_dropped', () => {
    expect(toLines('a\r\nb\n')).to.deep.equal(['a', 'b']);
  });
});

describe('oracle: normaliseResourceDump', () => {
  const source = [
    'Binary APK',
    'Package name=com.example id=7f',
    '  type string id=01 entryCount=1',
    '    resource 0x7f010000 string/app_name',
    '      () "App"',
  ];

  it('normaliseResourceDump_splitsInNewType_typeRemoved', () => {
    const universal = [
      ...source,
      '  type xml id=02 entryCount=1',
      '    resource 0x7f020000 xml/splits0',
      '      () (file) res/xml/splits0.xml type=XML',
    ];
    expect(normaliseResourceDump(universal)).to.deep.equal(source);
  });

  it('normaliseResourceDump_splitsInExistingType_entryCountFixed', () => {
    const withXml = [...source, '  type xml id=02 entryCount=1', '    resource 0x7f020000 xml/prefs', '      () (file) res/xml/prefs.xml type=XML'];
    const universal = [
      ...source,
      '  type xml id=02 entryCount=2',
      '    resource 0x7f020000 xml/prefs',
      '      () (file) res/xml/prefs.xml type=XML',
      '    resource 0x7f020001 xml/splits0',
      '      () (file) res/xml/splits0.xml type=XML',
    ];
    expect(normaliseResourceDump(universal)).to.deep.equal(withXml);
  });

  it('normaliseResourceDump_apkWithoutTable_injectedPackageRemoved', () => {
    const universal = ['Binary APK', 'Package name=com.example id=7f', '  type xml id=01 entryCount=1', '    resource 0x7f010000 xml/splits0', '      () (file) res/xml/splits0.xml type=XML'];
    expect(normaliseResourceDump(universal)).to.deep.equal(['Binary APK']);
  });

  it('normaliseResourceDump_noInjectedResource_unchanged', () => {
    expect(normaliseResourceDump(source)).to.deep.equal(source);
  });
});

describe('oracle: xmltree normalisation', () => {
  const manifest = [
    `N: android=${ANDROID} (line=2)`,
    '  E: manifest (line=2)',
    `    A: ${ANDROID}:versionCode(0x0101021b)=1`,
    '    A: platformBuildVersionCode=23 (Raw: "23")',
    '    A: package="com.example" (Raw: "com.example")',
    '      E: application (line=5)',
    `        A: ${ANDROID}:label(0x01010001)=@0x7f060000`,
    '          E: activity (line=6)',
    `            A: ${ANDROID}:name(0x01010003)=".Main" (Raw: ".Main")`,
  ];
  const injected = [
    '          E: meta-data (line=0)',
    `            A: ${ANDROID}:name(0x01010003)="com.android.vending.splits" (Raw: "com.android.vending.splits")`,
    `            A: ${ANDROID}:resource(0x01010025)=@0x7f070000`,
  ];

  it('parseXmlTree_attributesBelongToTheirElement_printsBackTheSameLines', () => {
    const tree = parseXmlTree(manifest);
    expect(tree).to.have.length(1);
    const root = tree[0].children[0];
    expect(root.text).to.equal('E: manifest (line=2)');
    expect(root.attributes).to.have.length(3);
    expect(root.children[0].children[0].text).to.equal('E: activity (line=6)');
    expect(printXmlTree(tree)).to.deep.equal(manifest);
  });

  it('parseAttribute_namespacedWithId_splitsParts', () => {
    expect(parseAttribute(`A: ${ANDROID}:versionCode(0x0101021b)=1`)).to.deep.equal({
      namespace: ANDROID,
      name: 'versionCode',
      resourceId: '0x0101021b',
      value: '1',
    });
    expect(parseAttribute('A: package="a.b" (Raw: "a.b")')?.name).to.equal('package');
  });

  it('stripRawOfTypedValue_typedValue_rawDropped_stringKept', () => {
    expect(stripRawOfTypedValue('23 (Raw: "23")')).to.equal('23');
    expect(stripRawOfTypedValue('"x" (Raw: "x")')).to.equal('"x" (Raw: "x")');
  });

  it('collapseTextWhitespace_newlinesAndSpaces_oneSpace', () => {
    expect(collapseTextWhitespace("T: ' Push application\\n  for login\\n'")).to.equal("T: ' Push application for login '");
    expect(collapseTextWhitespace('A: x="a  b"')).to.equal('A: x="a  b"');
  });

  it('normaliseXmlDump_injectedMetaDataAndRawStrings_equalToSource', () => {
    const universal = [...manifest.slice(0, 3), '    A: platformBuildVersionCode=23', ...manifest.slice(4), ...injected];
    const split = [...universal.slice(0, 3), `    A: ${ANDROID}:isSplitRequired(0x01010591)=true`, ...universal.slice(3)];
    const expected = normaliseXmlDump(manifest, { manifest: true });
    expect(normaliseXmlDump(split, { manifest: true })).to.deep.equal(expected);
  });

  it('normaliseXmlDump_appMetaData_kept', () => {
    const own = ['          E: meta-data (line=7)', `            A: ${ANDROID}:name(0x01010003)="com.example.key" (Raw: "com.example.key")`];
    expect(normaliseXmlDump([...manifest, ...own], { manifest: true })).to.include('          E: meta-data (line=7)');
  });

  it('normaliseXmlDump_changedLineNumber_stillDiffers', () => {
    const moved = manifest.map((l) => l.replace('activity (line=6)', 'activity (line=7)'));
    expect(firstDifference(normaliseXmlDump(manifest, { manifest: true }), normaliseXmlDump(moved, { manifest: true }))).to.not.equal(null);
  });

  it('repairAllowance_warningNamesAttribute_attributeIgnoredOnBothSides', () => {
    const repairs = repairAllowance([{ code: 'VERSION_CODE_MISSING', message: 'O manifesto não declarava android:versionCode; foi definido como 1.' }], manifest);
    expect([...repairs.attributes]).to.deep.equal(['versionCode']);
    const without = manifest.filter((l) => !l.includes('versionCode'));
    expect(normaliseXmlDump(without, { manifest: true, repairs })).to.deep.equal(normaliseXmlDump(manifest, { manifest: true, repairs }));
  });

  it('repairAllowance_informativeWarningNamingAnAttribute_allowsNothing', () => {
    const repairs = repairAllowance([{ code: 'DEBUGGABLE_APP', message: 'O APK é depurável (android:debuggable="true"); o Google Play recusa apps depuráveis.' }], [
      ...manifest,
      `        A: ${ANDROID}:debuggable(0x0101000f)=true`,
    ]);
    expect(repairs.attributes.size + repairs.elements.size).to.equal(0);
  });
});

describe('oracle: entries', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-oracle-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function zip(name: string, files: Record<string, Buffer>): ZipArchive {
    const path = join(dir, name);
    const w = new ZipWriter(path);
    for (const [n, data] of Object.entries(files)) w.add(n, data, { method: n.endsWith('.png') ? 'store' : 'deflate', align: 4 });
    w.close();
    return ZipArchive.open(path);
  }

  const xml = Buffer.from([0x03, 0x00, 0x08, 0x00, 0x10, 0, 0, 0]);

  it('zip_writeThenRead_sameContentAndAlignment', () => {
    const a = zip('a.zip', { 'a.png': Buffer.from('png!'), 'dir/b.txt': Buffer.from('hello hello hello') });
    expect(a.entries.map((e) => [e.name, e.method])).to.deep.equal([['a.png', 0], ['dir/b.txt', 8]]);
    expect(a.read(a.entries[1]).toString()).to.equal('hello hello hello');
    const e = a.entries[0];
    expect(a.raw(e).byteOffset % 4).to.equal(0);
  });

  it('compareEntries_signaturesAndSplitsFile_ignored_xmlListed_bytesCompared', () => {
    const src = zip('src.zip', {
      'AndroidManifest.xml': xml,
      'META-INF/CERT.RSA': Buffer.from('sig'),
      'META-INF/MANIFEST.MF': Buffer.from('mf'),
      'META-INF/services/x': Buffer.from('svc'),
      'res/layout/a.xml': xml,
      'res/raw/b.xml': Buffer.from('<plain/>'),
      'assets/c.txt': Buffer.from('c'),
      'res/drawable/dropped.png': Buffer.from('p'),
    });
    const uni = zip('uni.zip', {
      'AndroidManifest.xml': Buffer.from('different'),
      'META-INF/BNDLTOOL.RSA': Buffer.from('other sig'),
      'META-INF/services/x': Buffer.from('svc'),
      'res/layout/a.xml': Buffer.from([0x03, 0x00, 0x08, 0x00, 0x20, 0, 0, 0]),
      'res/raw/b.xml': Buffer.from('<plain/>'),
      'assets/c.txt': Buffer.from('C'),
      'res/xml/splits0.xml': xml,
      'extra.bin': Buffer.from('?'),
    });
    expect(compareEntries(src, uni)).to.deep.equal({
      missing: ['res/drawable/dropped.png'],
      extra: ['extra.bin'],
      differing: ['assets/c.txt (1 bytes in the APK, 1 after the round trip)'],
      xmlFiles: ['res/layout/a.xml'],
      compressed: [],
    });
    const warned = compareEntries(src, uni, droppableEntries([{ code: 'X', message: 'x', detail: '1: res/drawable/dropped.png' }], []));
    expect(warned.missing).to.deep.equal([]);
  });

  it('compareEntries_storedEntryCompressedAfterRoundTrip_reported', () => {
    const src = zip('stored-src.zip', { 'res/raw/song.png': Buffer.from('pcm'), 'assets/a.txt': Buffer.from('a') });
    const path = join(dir, 'stored-uni.zip');
    const w = new ZipWriter(path);
    w.add('res/raw/song.png', Buffer.from('pcm'), { method: 'deflate' });
    w.add('assets/a.txt', Buffer.from('a'), { method: 'store' });
    w.close();
    const uni = ZipArchive.open(path);
    expect(compareEntries(src, uni).compressed).to.deep.equal(['res/raw/song.png']);
    expect(compareEntries(src, uni, undefined, (n) => n === 'res/raw/song.png').compressed).to.deep.equal([]);
  });

  it('movedEntries_nativeFilesMoved_libDirectoryFilesToAssetsUnlessTaken', () => {
    const w = [{ code: 'NATIVE_FILES_MOVED', message: 'm', detail: '25: ...' }];
    const moved = movedEntries(w, new Set(['lib/x86/a.txt', 'lib/x86/b.txt', 'assets/lib/x86/b.txt']));
    expect(moved('lib/x86/a.txt')).to.equal('assets/lib/x86/a.txt');
    expect(moved('lib/x86/b.txt')).to.equal(undefined);
    expect(moved('lib/x86/libfoo.so')).to.equal(undefined);
    expect(moved('lib/sparc/a.txt')).to.equal(undefined);
    expect(moved('lib/x86/sub/a.txt')).to.equal(undefined);
    expect(movedEntries([], new Set())('lib/x86/a.txt')).to.equal(undefined);
  });

  it('compareEntries_movedEntry_comparedAtItsNewPath', () => {
    const src = zip('moved-src.zip', { 'lib/x86/a.txt': Buffer.from('a') });
    const same = zip('moved-uni.zip', { 'assets/lib/x86/a.txt': Buffer.from('a') });
    const other = zip('moved-uni2.zip', { 'assets/lib/x86/a.txt': Buffer.from('b') });
    const moved = (n: string) => (n === 'lib/x86/a.txt' ? 'assets/lib/x86/a.txt' : undefined);
    expect(compareEntries(src, same, undefined, undefined, moved)).to.deep.include({ missing: [], extra: [], differing: [] });
    expect(compareEntries(src, other, undefined, undefined, moved).differing).to.have.length(1);
    expect(compareEntries(src, same)).to.deep.include({ missing: ['lib/x86/a.txt'], extra: ['assets/lib/x86/a.txt'] });
  });

  it('isBinaryXml_header_detected', () => {
    expect(isBinaryXml(xml)).to.equal(true);
    expect(isBinaryXml(Buffer.from('<?xml version="1.0"?>'))).to.equal(false);
  });

  it('droppableEntries_warningCodes_onlyFilesWithAnIndependentReason', () => {
    const dump = ['      () (file) res/drawable/used.png type=PNG', '      (v21) (file) res/anim/a.xml type=XML'];
    expect([...referencedFiles(dump)]).to.deep.equal(['res/drawable/used.png', 'res/anim/a.xml']);
    const w = (code: string) => [{ code, message: 'm', detail: '25: ...' }];
    expect(droppableEntries(w('UNREFERENCED_RESOURCES_DROPPED'), dump)('res/drawable/unused.png')).to.equal(true);
    expect(droppableEntries(w('UNREFERENCED_RESOURCES_DROPPED'), dump)('res/drawable/used.png')).to.equal(false);
    expect(droppableEntries(w('NATIVE_FILES_DROPPED'), dump)('lib/armeabi/gdbserver')).to.equal(true);
    expect(droppableEntries(w('NATIVE_FILES_DROPPED'), dump)('lib/armeabi/libfoo.so')).to.equal(false);
    expect(droppableEntries([], dump)('res/drawable/unused.png')).to.equal(false);
  });

  it('entryReported_pathInDetail_true', () => {
    expect(entryReported([{ code: 'X', message: 'm', detail: 'lib/foo/libx.so, lib/foo/liby.so' }], 'lib/foo/liby.so')).to.equal(true);
    expect(entryReported([{ code: 'X', message: 'm' }], 'lib/foo/liby.so')).to.equal(false);
  });
});

describe('oracle: corpus manifest', () => {
  it('parseCorpusManifest_row_fieldsByHeader', () => {
    const tsv = 'file\tsha256\tbytes\tpackage\tversionCode\tminSdk\ttargetSdk\tabis\tdex_count\tnotes\n' + 'a.apk\tff\t10\tcom.a\t-\t21\t34\tx86,arm64-v8a\t2\tnote\n';
    const [apk] = parseCorpusManifest(tsv, '/c');
    expect(apk).to.include({ file: 'a.apk', name: 'a', path: '/c/a.apk', bytes: 10, packageName: 'com.a', versionCode: '-', dexCount: 2 });
    expect(apk.abis).to.deep.equal(['x86', 'arm64-v8a']);
  });
});

describe('oracle: aapt badging', () => {
  it('parseBadging_packageAndSdkLines_fields', () => {
    const text = "package: name='io.appium.settings' versionCode='192' versionName='8.0.10' compileSdkVersion='35'\nsdkVersion:'26'\ntargetSdkVersion:'35'\n";
    expect(parseBadging(text)).to.deep.equal({ packageName: 'io.appium.settings', versionCode: 192, versionName: '8.0.10', minSdk: 26, targetSdk: 35 });
  });

  it('parseBadging_noTargetSdk_undefined', () => {
    expect(parseBadging("package: name='com.politedroid' versionCode='4' versionName='1.3'\nsdkVersion:'3'\n").targetSdk).to.equal(undefined);
  });
});
