import { expect } from 'chai';
import { CONVERSION_MESSAGES, PLAY_FINDINGS, PLAY_FINDING_MESSAGES, PLAY_RESTRICTED_PERMISSIONS, checkOptionsOfAab, checkOptionsOfApk, outputFileName, parseConversionOptions, prePublicationChecklist, restrictedPermission, type PlayCheckInput } from '../src/index.js';

describe('pre-publication checklist: what the engine found', () => {
  const at = new Date('2026-11-27T12:00:00Z');
  const clean: PlayCheckInput = {
    debuggable: false,
    targetSdk: 36,
    versionCode: 3,
    abis: ['arm64-v8a', 'armeabi-v7a'],
    warnings: [],
    signature: { alias: 'upload' },
    durations: { checks: 1.2 },
  };
  const unaligned = { code: PLAY_FINDINGS.notSixteenKb, message: PLAY_FINDING_MESSAGES.notSixteenKb([{ path: 'lib/arm64-v8a/libflutter.so', alignment: 4096, sdk: 'Flutter' }]) };
  const exported = { code: PLAY_FINDINGS.exportedUndeclared, message: PLAY_FINDING_MESSAGES.exportedUndeclared([{ kind: 'activity', name: 'com.x.Main' }]) };
  const statusOf = (r: PlayCheckInput) => Object.fromEntries(prePublicationChecklist(r, at).map((c) => [c.code, c.status]));

  it('checklist_checksRanNothingFound_nativeRowsOkOthersAbsent', () => {
    expect(statusOf(clean)).to.deep.equal({ debuggable: 'ok', signature: 'ok', targetSdk: 'ok', pageSize16k: 'ok', abi64: 'ok', size: 'ok', versionCode: 'ok' });
  });

  it('versionCode_againstPlaysHighest_blockerWhenNotGreater_warningWhenPlayNotReached', () => {
    const row = (r: PlayCheckInput) => prePublicationChecklist(r, at).find((c) => c.code === 'versionCode');
    expect(row({ ...clean, play: { reached: true, highestVersionCode: 3 } })?.status).to.equal('blocker');
    expect(row({ ...clean, play: { reached: true, highestVersionCode: 9 } })?.action).to.include('10');
    expect(row({ ...clean, play: { reached: true, highestVersionCode: 2 } })?.status).to.equal('ok');
    expect(row({ ...clean, play: { reached: true, highestVersionCode: null } })?.title).to.include('ainda não tem versões no Google Play');
    const unreached = row({ ...clean, play: { reached: false, code: 'PLAY_UNAVAILABLE', message: 'O Google Play não respondeu.' } });
    expect(unreached?.status).to.equal('warning');
    expect(unreached?.title).to.include('O Google Play não respondeu.');
    // Blockers first: the Play row leads the list.
    expect(prePublicationChecklist({ ...clean, play: { reached: true, highestVersionCode: 3 } }, at)[0]?.code).to.equal('versionCode');
  });

  it('conversionOptions_versionCodeNumberOrPlay_aabTakesOnlySign', () => {
    expect(parseConversionOptions('{"versionCode":"play"}')).to.deep.equal({ ok: true, options: { versionCode: 'play' } });
    expect(parseConversionOptions('{"versionCode":43}')).to.deep.equal({ ok: true, options: { versionCode: 43 } });
    for (const bad of ['"google"', '0', '4.5', '2100000001', '"43"']) expect(parseConversionOptions(`{"versionCode":${bad}}`).ok, bad).to.equal(false);
    expect(checkOptionsOfAab({ sign: true }, [])).to.deep.equal({ ok: true, options: { sign: true } });
    const refused = checkOptionsOfAab({ sign: true, versionCode: 3 }, []);
    expect(refused.ok).to.equal(false);
    if (!refused.ok) expect(refused.fields).to.have.key('options.versionCode');
  });

  it('conversionOptions_deviceSet_onlyForAnAabWithAKnownProfile', () => {
    const profiles = ['arm64-v8a_xxhdpi_pt-BR', 'x86_64_xhdpi_es'];
    const parsed = parseConversionOptions('{"output":"device-set","device":"x86_64_xhdpi_es","sign":true}');
    expect(parsed).to.deep.equal({ ok: true, options: { output: 'device-set', device: 'x86_64_xhdpi_es', sign: true } });
    if (parsed.ok) expect(checkOptionsOfAab(parsed.options, profiles)).to.deep.equal(parsed);
    expect(checkOptionsOfAab({ output: 'universal' }, profiles).ok).to.equal(true);
    for (const options of [{ output: 'device-set' as const, device: 'galaxy-s99' }, { output: 'device-set' as const }]) {
      const unknown = checkOptionsOfAab(options, profiles);
      expect(unknown).to.deep.include({ ok: false, code: 'UNKNOWN_DEVICE_PROFILE', message: CONVERSION_MESSAGES.unknownDeviceProfile(profiles) });
    }
    expect(checkOptionsOfAab({ device: 'x86_64_xhdpi_es' }, profiles)).to.deep.include({ ok: false, message: CONVERSION_MESSAGES.deviceNeedsDeviceSet });
    expect(parseConversionOptions('{"output":"tudo"}')).to.deep.include({ ok: false, message: CONVERSION_MESSAGES.apksOutput });
    const onApk = checkOptionsOfApk({ output: 'device-set', device: 'x86_64_xhdpi_es' });
    expect(onApk).to.deep.include({ ok: false, code: 'DEVICE_SET_NOT_FOR_APK', message: CONVERSION_MESSAGES.deviceSetNotForApk });
    expect(checkOptionsOfApk({ sign: true })).to.deep.equal({ ok: true, options: { sign: true } });
    expect(outputFileName({ kind: 'aab-to-apks', fileName: 'Meu App Ação.aab', options: { output: 'device-set' } })).to.equal('Meu App Ação.apks');
    expect(outputFileName({ kind: 'aab-to-apks', fileName: 'Meu App Ação.aab', options: {} })).to.equal('Meu App Ação.apk');
    expect(outputFileName({ kind: 'apk-to-aab', fileName: 'app.apk', options: null })).to.equal('app.aab');
  });

  it('checklist_reportFromBeforeTheChecks_noNativeRows', () => {
    const { durations: _, ...old } = clean;
    expect(Object.keys(statusOf({ ...old, warnings: [unaligned] }))).to.not.include.members(['pageSize16k', 'abi64']);
  });

  it('pageSize16k_byTargetSdk_blockerFrom35WarningBelowAndForCodenames', () => {
    expect(statusOf({ ...clean, warnings: [unaligned] }).pageSize16k).to.equal('blocker');
    expect(statusOf({ ...clean, targetSdk: 35, warnings: [unaligned] }).pageSize16k).to.equal('blocker');
    expect(statusOf({ ...clean, targetSdk: 34, warnings: [unaligned] }).pageSize16k).to.equal('warning');
    expect(statusOf({ ...clean, targetSdk: 'IceCreamSandwich', warnings: [unaligned] }).pageSize16k).to.equal('warning');
    const [row] = prePublicationChecklist({ ...clean, warnings: [unaligned] }, at);
    expect(row.title).to.equal(
      '1 biblioteca nativa de 64 bits não suporta páginas de 16 KB (segmentos LOAD alinhados abaixo de 16 KB): lib/arm64-v8a/libflutter.so (4 KB; costuma vir de Flutter). O Google Play recusa o envio.',
    );
  });

  it('exported_byTargetSdk_blockerFrom31WarningBelow', () => {
    expect(statusOf({ ...clean, targetSdk: 31, warnings: [exported] }).exported).to.equal('blocker');
    expect(statusOf({ ...clean, targetSdk: 30, warnings: [exported] }).exported).to.equal('warning');
  });

  it('permissions_actionNamesEachPolicyWithItsLink', () => {
    const names = ['android.permission.READ_SMS', 'android.permission.MANAGE_EXTERNAL_STORAGE'];
    const row = prePublicationChecklist({ ...clean, warnings: [{ code: PLAY_FINDINGS.restrictedPermissions, message: PLAY_FINDING_MESSAGES.restrictedPermissions(names), detail: names.join('\n') }] }, at).find((c) => c.code === 'permissions')!;
    expect(row.status).to.equal('warning');
    expect(row.title).to.equal('O app pede 2 permissões restritas pelo Google Play: READ_SMS (SMS e registro de chamadas), MANAGE_EXTERNAL_STORAGE (Acesso a todos os arquivos).');
    expect(row.action).to.contain('https://support.google.com/googleplay/android-developer/answer/10208820').and.contain('https://support.google.com/googleplay/android-developer/answer/10467955');
  });

  it('findingMessages_longLists_firstEightThenACount', () => {
    const libs = Array.from({ length: 11 }, (_, i) => ({ path: `lib/x86_64/lib${i}.so`, alignment: 4096 }));
    expect(PLAY_FINDING_MESSAGES.notSixteenKb(libs)).to.match(/lib7\.so \(4 KB\) e mais 3\.$/);
  });

  it('permissionTable_everyRowHasAPolicyALinkAndFullNames', () => {
    for (const row of PLAY_RESTRICTED_PERMISSIONS) {
      expect(row.link).to.match(/^https:\/\/support\.google\.com\/googleplay\/android-developer\/answer\/\d+$/);
      for (const n of row.names) {
        expect(n).to.match(/^android\.permission\.[A-Z_]+$/);
        expect(restrictedPermission(n)).to.equal(row);
      }
    }
  });
});
