import { expect } from 'chai';
import { APK_MESSAGES, checkApkFile, checkDroppedFiles, conversionKindOf, MAX_APK_BYTES } from '../src/lib/apkFile';
import { versionCodeOption, VERSION_CODE_TEXTS } from '../src/pages/converter/VersionCodeOption';

const apk = (name: string, size = 1000, type = 'application/vnd.android.package-archive') => ({ name, size, type });

describe('apk file checks', () => {
  it('checkApkFile_wrongExtension_rejectedWithPtBrMessage', () => {
    expect(checkApkFile(apk('app.zip'))).to.deep.equal({ ok: false, error: 'O arquivo deve ter extensão .apk' });
  });
  it('checkApkFile_upperCaseExtension_accepted', () => {
    expect(checkApkFile(apk('APP.APK'))).to.deep.equal({ ok: true });
  });
  it('checkApkFile_over100MB_rejectedWithPtBrMessage', () => {
    expect(checkApkFile(apk('a.apk', MAX_APK_BYTES + 1))).to.deep.equal({ ok: false, error: 'O arquivo excede o limite de 100MB' });
    expect(checkApkFile(apk('a.apk', MAX_APK_BYTES)).ok).to.equal(true);
  });
  it('checkApkFile_unexpectedMime_onlyWarns', () => {
    const r = checkApkFile(apk('a.apk', 10, 'text/plain'));
    expect(r).to.deep.equal({ ok: true, warning: APK_MESSAGES.mimeWarning('text/plain') });
    expect(checkApkFile(apk('a.apk', 10, ''))).to.deep.equal({ ok: true });
  });
  it('checkDroppedFiles_splitSetWithObb_acceptedUpToTwentyFiles', () => {
    expect(checkDroppedFiles([apk('base.apk'), apk('split_config.x86_64.apk'), apk('main.1.app.obb')])).to.deep.equal({ ok: true });
    expect(checkDroppedFiles([apk('app.apks')]).ok).to.equal(true);
    expect(checkDroppedFiles(Array.from({ length: 21 }, (_, i) => apk(`s${i}.apk`)))).to.deep.equal({ ok: false, error: 'No máximo 20 arquivos por conversão.' });
  });
  it('checkDroppedFiles_aab_acceptedAloneMakesAnApk_refusedWithOtherFiles', () => {
    expect(checkDroppedFiles([apk('Meu App.AAB', 1000, 'application/octet-stream')])).to.deep.equal({ ok: true });
    expect(conversionKindOf([apk('Meu App.AAB')])).to.equal('aab-to-apks');
    expect(conversionKindOf([apk('app.apk')])).to.equal('apk-to-aab');
    expect(checkDroppedFiles([apk('app.aab'), apk('main.1.app.obb')])).to.deep.equal({ ok: false, error: 'Envie o arquivo .aab sozinho: a conversão AAB → APK recebe um único bundle.' });
    expect(conversionKindOf([apk('app.aab'), apk('base.apk')])).to.equal('apk-to-aab');
  });
  it('versionCodeOption_keepNumberOrPlay_badNumbersRefused', () => {
    expect(versionCodeOption({ mode: 'keep' })).to.deep.equal({ ok: true });
    expect(versionCodeOption({ mode: 'play' })).to.deep.equal({ ok: true, versionCode: 'play' });
    expect(versionCodeOption({ mode: 'number', value: ' 43 ' })).to.deep.equal({ ok: true, versionCode: 43 });
    for (const value of ['', '0', '4.5', '-1', '2100000001', 'abc']) expect(versionCodeOption({ mode: 'number', value }), value).to.deep.equal({ ok: false, error: VERSION_CODE_TEXTS.invalid });
  });
  it('checkDroppedFiles_onlyObbOrBadExtension_ptBrMessages', () => {
    expect(checkDroppedFiles([apk('main.1.app.obb')])).to.deep.equal({ ok: false, error: 'Envie o APK (ou o conjunto de APKs) junto com os arquivos .obb.' });
    expect(checkDroppedFiles([apk('notas.txt')])).to.deep.equal({ ok: false, error: 'Cada arquivo deve ser .apk, .apks, .xapk, .apkm, .zip (conjunto de splits), .obb ou .aab (para gerar o APK).' });
  });
  it('checkDroppedFiles_sumOverTheLimit_tooLarge', () => {
    expect(checkDroppedFiles([apk('a.apk', MAX_APK_BYTES - 10), apk('main.1.app.obb', 11)])).to.deep.equal({ ok: false, error: 'O arquivo excede o limite de 100MB' });
  });
  it('checkDroppedFiles_emptyFile_smallerThanOneByte', () => {
    expect(checkDroppedFiles([apk('a.apk', 0)])).to.deep.equal({ ok: false, error: APK_MESSAGES.smaller(1) });
  });
});
