/**
 * The pre-publication checks of what Google Play refuses beyond the bundle's format, on APKs
 * linked by Google's aapt2 from real manifests, with ELF libraries written here byte by byte:
 * each check fires on the app made to trip it, and stays quiet on the clean control (16 KB-aligned
 * libraries, 64-bit code present, android:exported declared…). The checklist rows are the ones
 * the service, the dashboard and the CLI show (@aabify/shared/playChecklist).
 */
import { expect } from 'chai';
import { prePublicationChecklist, type PlayCheck } from '@aabify/shared/playChecklist';
import { checkApp, convertApk, type ConversionReport } from '../src/index.js';
import { programHeadersEnd, readElfLoadSegments } from '../src/checks/elf.js';
import { elfLibrary } from './helpers/elf.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { TempDir } from './helpers/zipBuilder.js';
import { buildAapt2Apk, type Aapt2Fixture } from './oracle/aapt2Fixture.js';

const AT = new Date('2026-11-27T12:00:00Z');

interface ManifestOptions {
  targetSdk?: number;
  testOnly?: boolean;
  permissions?: string[];
  /** Inside <application>. */
  components?: string;
}

function manifest(o: ManifestOptions = {}): string {
  const permissions = (o.permissions ?? []).map((p) => `  <uses-permission android:name="${p}"/>`).join('\n');
  return `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.checks" android:versionCode="7" android:versionName="1.7">
  <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="${o.targetSdk ?? 36}"/>
${permissions}
  <application${o.testOnly ? ' android:testOnly="true"' : ''}>
    ${o.components ?? '<activity android:name=".Main" android:exported="true"><intent-filter><action android:name="android.intent.action.MAIN"/><category android:name="android.intent.category.LAUNCHER"/></intent-filter></activity>'}
  </application>
</manifest>`;
}

const aligned = (): Record<string, Buffer> => ({
  'lib/arm64-v8a/libapp.so': elfLibrary({ alignments: [16384, 16384] }),
  'lib/x86_64/libapp.so': elfLibrary({ machine: 62, alignments: [65536] }),
  'lib/armeabi-v7a/libapp.so': elfLibrary({ bits: 32, alignments: [4096] }),
});

function byCode(checks: readonly PlayCheck[]): Record<string, PlayCheck> {
  return Object.fromEntries(checks.map((c) => [c.code, c]));
}

describe('pre-publication checks: ELF program headers', () => {
  it('readElfLoadSegments_bothClassesBothByteOrders_alignmentsOfLoadSegments', () => {
    for (const [bits, littleEndian] of [[64, true], [64, false], [32, true], [32, false]] as const) {
      const bytes = elfLibrary({ bits, littleEndian, alignments: [4096, 16384, 65536] });
      const r = readElfLoadSegments(bytes, bytes.length);
      expect(r, `${bits}-bit ${littleEndian ? 'LE' : 'BE'}`).to.deep.equal({ ok: true, elf: { bits, littleEndian, machine: bits === 64 ? 183 : 40, loadAlignments: [4096, 16384, 65536] } });
    }
  });

  it('readElfLoadSegments_malformed_problemInPortugueseNeverAThrow', () => {
    const good = elfLibrary({ alignments: [16384] });
    const patched = (at: number, bytes: number[]): Buffer => {
      const b = Buffer.from(good);
      b.set(bytes, at);
      return b;
    };
    const problems: Record<string, Buffer> = {
      'não é um arquivo ELF': Buffer.from('not an elf at all, just text'),
      'classe ELF desconhecida (7)': patched(4, [7]),
      'ordem de bytes ELF desconhecida (0)': patched(5, [0]),
      'sem cabeçalhos de programa (nenhum segmento carregável)': patched(56, [0, 0]),
      'tamanho de cabeçalho de programa inválido (8)': patched(54, [8, 0]),
      'cabeçalhos de programa fora do arquivo': patched(32, [0, 0, 0, 0x10, 0, 0, 0, 0]),
      'nenhum segmento carregável (PT_LOAD)': patched(64, [6, 0, 0, 0]),
    };
    for (const [problem, bytes] of Object.entries(problems)) {
      const r = readElfLoadSegments(bytes, bytes.length);
      expect(r, problem).to.deep.equal({ ok: false, problem });
    }
    // Every truncation of a real header, and noise: an answer, never an exception.
    for (let n = 0; n <= 200; n++) {
      expect(() => readElfLoadSegments(good.subarray(0, n), n)).not.to.throw();
      expect(() => programHeadersEnd(good.subarray(0, n), n)).not.to.throw();
    }
    let x = 99;
    for (let i = 0; i < 500; i++) {
      const noise = Buffer.from(good);
      for (let k = 0; k < 8; k++) {
        x = (x * 1103515245 + 12345) >>> 0;
        noise[(x >>> 8) % 200] = x & 0xff;
      }
      expect(() => readElfLoadSegments(noise, noise.length)).not.to.throw();
    }
  });
});

describe('pre-publication checks: apps linked by aapt2', function () {
  this.timeout(120_000);
  let o: Pick<Oracles, 'aapt2' | 'frameworkRes'>;
  let tmp: TempDir;
  before(function () {
    o = requireOracles(this, 'aapt2', 'frameworkRes');
    tmp = new TempDir();
  });
  after(() => tmp?.cleanup());

  async function converted(name: string, fixture: Aapt2Fixture): Promise<{ report: ConversionReport; checks: Record<string, PlayCheck> }> {
    const apk = await buildAapt2Apk(o, tmp.path, name, fixture);
    const report = await convertApk(apk, tmp.file(`${name}.aab`));
    return { report, checks: byCode(prePublicationChecklist(report, AT)) };
  }

  it('cleanApp_alignedLibs64BitExportedDeclared_noCheckFires', async () => {
    const { report, checks } = await converted('clean', { manifest: manifest(), files: aligned() });
    expect(report.durations.checks).to.be.a('number');
    expect(Object.values(checks).filter((c) => c.status !== 'ok' && c.code !== 'signature').map((c) => c.code)).to.deep.equal([]);
    expect(checks.pageSize16k).to.include({ status: 'ok', title: 'Bibliotecas nativas de 64 bits compatíveis com páginas de 16 KB' });
    expect(checks.abi64).to.include({ status: 'ok', title: 'Código nativo de 64 bits presente (arm64-v8a, x86_64)' });
    for (const code of ['testOnly', 'exported', 'permissions', 'foregroundServiceType']) expect(checks[code], code).to.equal(undefined);
  });

  it('pageSize16k_4kAlignedLibsBothByteOrders_blockerNamingLibraryAndSdk', async () => {
    const files = {
      ...aligned(),
      'lib/arm64-v8a/libflutter.so': elfLibrary({ alignments: [4096, 4096] }),
      'lib/x86_64/libcustom.so': elfLibrary({ machine: 62, littleEndian: false, alignments: [16384, 8192] }),
    };
    const { report, checks } = await converted('unaligned', { manifest: manifest(), files });
    expect(checks.pageSize16k!.status).to.equal('blocker');
    expect(checks.pageSize16k!.title).to.equal(
      '2 bibliotecas nativas de 64 bits não suportam páginas de 16 KB (segmentos LOAD alinhados abaixo de 16 KB): lib/arm64-v8a/libflutter.so (4 KB; costuma vir de Flutter), lib/x86_64/libcustom.so (8 KB). O Google Play recusa o envio.',
    );
    expect(checks.pageSize16k!.action).to.contain('NDK r28');
    expect(report.warnings.find((w) => w.code === 'NATIVE_LIBRARY_NOT_16KB')?.detail).to.equal('lib/arm64-v8a/libflutter.so\nlib/x86_64/libcustom.so');
  });

  it('pageSize16k_targetSdkBelow35_warningSayingWhenPlayRefuses', async () => {
    const { checks } = await converted('unaligned34', { manifest: manifest({ targetSdk: 34 }), files: { 'lib/arm64-v8a/libx.so': elfLibrary({ alignments: [4096] }) } });
    expect(checks.pageSize16k!.status).to.equal('warning');
    expect(checks.pageSize16k!.title).to.contain('targetSdk 35 (Android 15) ou mais');
  });

  it('pageSize16k_malformedAndDeflatedLibraries_codedWarningAndTheConversionGoesOn', async () => {
    const files = {
      'lib/arm64-v8a/libok.so': elfLibrary({ alignments: [16384], size: 200_000 }),
      'lib/arm64-v8a/libtext.so': Buffer.from('#!/bin/sh\necho not a library\n'),
      'lib/x86_64/libtrunc.so': elfLibrary({ alignments: [16384] }).subarray(0, 40),
      'lib/x86_64/lib32.so': elfLibrary({ bits: 32, alignments: [16384] }),
    };
    const { report, checks } = await converted('malformed', { manifest: manifest(), files, deflate: true });
    const warning = report.warnings.find((w) => w.code === 'NATIVE_LIBRARY_UNREADABLE');
    expect(warning?.message).to.equal(
      'Não foi possível ler o cabeçalho ELF de 3 bibliotecas nativas: lib/arm64-v8a/libtext.so (não é um arquivo ELF), lib/x86_64/lib32.so (ELF de 32 bits numa pasta de ABI de 64 bits), lib/x86_64/libtrunc.so (cabeçalho ELF truncado).',
    );
    expect(checks.pageSize16k).to.include({ status: 'warning', title: warning!.message });
  });

  it('abi64_32BitOnly_blockerAndWith64BitPresent_ok', async () => {
    const only32 = await converted('only32', { manifest: manifest(), files: { 'lib/armeabi-v7a/liba.so': elfLibrary({ bits: 32 }), 'lib/x86/liba.so': elfLibrary({ bits: 32, machine: 3 }) } });
    expect(only32.checks.abi64).to.include({ status: 'blocker', title: 'Código nativo só de 32 bits: armeabi-v7a sem arm64-v8a, x86 sem x86_64. O Google Play exige a versão de 64 bits de todo código nativo.' });
    const both = await converted('both', { manifest: manifest(), files: { 'lib/armeabi-v7a/liba.so': elfLibrary({ bits: 32 }), 'lib/arm64-v8a/liba.so': elfLibrary() } });
    expect(both.checks.abi64!.status).to.equal('ok');
  });

  it('testOnly_true_blocker', async () => {
    const { checks } = await converted('testonly', { manifest: manifest({ testOnly: true }) });
    expect(checks.testOnly).to.include({ status: 'blocker' });
  });

  it('exported_intentFilterWithoutIt_blockerFrom31WarningBelow', async () => {
    const components = `<activity android:name=".Main"><intent-filter><action android:name="android.intent.action.MAIN"/></intent-filter></activity>
    <activity-alias android:name=".Alias" android:targetActivity=".Main"><intent-filter><action android:name="android.intent.action.VIEW"/></intent-filter></activity-alias>
    <receiver android:name="com.lib.Boot"><intent-filter><action android:name="android.intent.action.BOOT_COMPLETED"/></intent-filter></receiver>
    <service android:name=".Quiet" android:exported="false"><intent-filter><action android:name="x.Y"/></intent-filter></service>
    <provider android:name=".Files" android:authorities="com.example.checks.files"/>
    <activity android:name=".NoFilter"/>`;
    const at31 = await converted('exported31', { manifest: manifest({ targetSdk: 31, components }) });
    expect(at31.checks.exported!.status).to.equal('blocker');
    expect(at31.checks.exported!.title).to.match(
      /^3 componentes com intent-filter não declaram android:exported: <activity> com\.example\.checks\.Main, <activity-alias> com\.example\.checks\.Alias, <receiver> com\.lib\.Boot\. Com targetSdk 31/,
    );
    const at30 = await converted('exported30', { manifest: manifest({ targetSdk: 30, components }) });
    expect(at30.checks.exported!.status).to.equal('warning');
  });

  it('permissions_restrictedOnes_warningWithEachPolicyAndLink', async () => {
    const components = `<activity android:name=".Main" android:exported="true"/>
    <service android:name=".Helper" android:exported="false" android:permission="android.permission.BIND_ACCESSIBILITY_SERVICE"/>`;
    const { checks } = await converted('permissions', {
      manifest: manifest({ permissions: ['android.permission.READ_SMS', 'android.permission.QUERY_ALL_PACKAGES', 'android.permission.INTERNET', 'android.permission.CAMERA'], components }),
    });
    expect(checks.permissions).to.include({
      status: 'warning',
      title: 'O app pede 3 permissões restritas pelo Google Play: BIND_ACCESSIBILITY_SERVICE (API de acessibilidade), QUERY_ALL_PACKAGES (Visibilidade de todos os pacotes), READ_SMS (SMS e registro de chamadas).',
    });
    for (const link of ['answer/10208820', 'answer/10158779', 'answer/10964491']) expect(checks.permissions!.action).to.contain(link);
  });

  it('foregroundServiceType_missingTypeOrPermission_warningAndTypedWithPermission_quiet', async () => {
    const untyped = await converted('fgs-untyped', {
      manifest: manifest({ targetSdk: 34, permissions: ['android.permission.FOREGROUND_SERVICE'], components: '<activity android:name=".Main" android:exported="true"/><service android:name=".Sync" android:exported="false"/><service android:name=".Job" android:exported="false" android:permission="android.permission.BIND_JOB_SERVICE"/>' }),
    });
    expect(untyped.checks.foregroundServiceType).to.include({ status: 'warning' });
    expect(untyped.checks.foregroundServiceType!.title).to.match(/^1 serviço em primeiro plano sem .*: com\.example\.checks\.Sync \(sem tipo, e o app pede FOREGROUND_SERVICE\)\. Sem o tipo, startForeground\(\) falha no Android 14\+\.$/);
    const noPermission = await converted('fgs-noperm', {
      manifest: manifest({ targetSdk: 34, permissions: ['android.permission.FOREGROUND_SERVICE'], components: '<activity android:name=".Main" android:exported="true"/><service android:name=".Where" android:exported="false" android:foregroundServiceType="location"/>' }),
    });
    expect(noPermission.checks.foregroundServiceType!.title).to.contain('com.example.checks.Where (tipo location sem a permissão FOREGROUND_SERVICE_LOCATION)');
    const fine = await converted('fgs-fine', {
      manifest: manifest({
        targetSdk: 34,
        permissions: ['android.permission.FOREGROUND_SERVICE', 'android.permission.FOREGROUND_SERVICE_MEDIA_PLAYBACK'],
        components: '<activity android:name=".Main" android:exported="true"/><service android:name=".Player" android:exported="false" android:foregroundServiceType="mediaPlayback"/>',
      }),
    });
    expect(fine.checks.foregroundServiceType).to.equal(undefined);
    expect(fine.checks.permissions!.title, 'the type still asks its declaration').to.contain('FOREGROUND_SERVICE_MEDIA_PLAYBACK (Serviços em primeiro plano)');
  });

  it('checkApp_apkAndItsBundle_sameFindingsWithoutConverting', async () => {
    const fixture = { manifest: manifest({ testOnly: true, permissions: ['android.permission.READ_SMS'] }), files: { ...aligned(), 'lib/arm64-v8a/libflutter.so': elfLibrary({ alignments: [4096] }) } };
    const apk = await buildAapt2Apk(o, tmp.path, 'both-ways', fixture);
    const aab = tmp.file('both-ways.aab');
    const report = await convertApk(apk, aab);
    const fromApk = await checkApp(apk);
    const fromAab = await checkApp(aab);
    const codes = (ws: readonly { code: string }[]): string[] => ws.map((w) => w.code).filter((c) => ['NATIVE_LIBRARY_NOT_16KB', 'TEST_ONLY_BUILD', 'RESTRICTED_PERMISSIONS'].includes(c)).sort();
    expect(codes(fromApk.warnings)).to.deep.equal(['NATIVE_LIBRARY_NOT_16KB', 'RESTRICTED_PERMISSIONS', 'TEST_ONLY_BUILD']);
    expect(codes(fromAab.warnings)).to.deep.equal(codes(fromApk.warnings));
    expect(codes(report.warnings)).to.deep.equal(codes(fromApk.warnings));
    expect(fromApk).to.include({ container: 'apk', packageName: 'com.example.checks', versionCode: 7, targetSdk: 36 });
    expect(fromApk.notChecked).to.deep.equal(['signature', 'size']);
    expect(fromAab).to.include({ container: 'aab', packageName: 'com.example.checks', versionCode: 7, versionName: '1.7', targetSdk: 36, minSdk: 24 });
    expect(fromAab.abis).to.deep.equal(['arm64-v8a', 'armeabi-v7a', 'x86_64']);
    expect(byCode(prePublicationChecklist(fromAab, AT)).signature!.status, 'an unsigned bundle').to.equal('warning');
  });
});
