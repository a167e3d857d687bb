import { expect } from 'chai';
import { PAYMENT_MESSAGES } from '@aabify/shared';
import { APK_MESSAGES, checkApkFile, checkDroppedFiles, MAX_APK_BYTES } from '../src/lib/apkFile';
import { conversionErrorMessage, passwordChangeFieldErrors, pixCreateErrorMessage, uploadErrorMessage } from '../src/lib/errors';
import { countLogs, filterLogs, logFileName, logsAsText, visibleRange } from '../src/lib/logs';
import { trackerState } from '../src/lib/tracker';
import { durationFor, MAX_TOASTS, withToast, type ToastItem } from '../src/stores/toasts';
import type { LogEntry } from '../src/lib/conversion';

const apk = (name: string, size = 1000, type = 'application/vnd.android.package-archive') => ({ name, size, type });

describe('apk file checks', () => {
  it('checkApkFile_wrongExtension_rejectedWithSpecMessage', () => {
    expect(checkApkFile(apk('app.zip'))).to.deep.equal({ ok: false, error: 'O arquivo deve ter extensão .apk' });
  });
  it('checkApkFile_upperCaseExtension_accepted', () => {
    expect(checkApkFile(apk('APP.APK'))).to.deep.equal({ ok: true });
  });
  it('checkApkFile_over100MB_rejectedWithSpecMessage', () => {
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
  it('checkDroppedFiles_onlyObbOrBadExtension_ptBrMessages', () => {
    expect(checkDroppedFiles([apk('main.1.app.obb')])).to.deep.equal({ ok: false, error: 'Envie o APK (ou o conjunto de APKs) junto com os arquivos .obb.' });
    expect(checkDroppedFiles([apk('notas.txt')])).to.deep.equal({ ok: false, error: 'Cada arquivo deve ser .apk, .apks, .xapk, .apkm, .zip (conjunto de splits) ou .obb.' });
  });
  it('checkDroppedFiles_sumOverTheLimit_tooLarge', () => {
    expect(checkDroppedFiles([apk('a.apk', MAX_APK_BYTES - 10), apk('main.1.app.obb', 11)])).to.deep.equal({ ok: false, error: 'O arquivo excede o limite de 100MB' });
  });
  it('checkDroppedFiles_emptyFile_smallerThanOneByte', () => {
    expect(checkDroppedFiles([apk('a.apk', 0)])).to.deep.equal({ ok: false, error: APK_MESSAGES.smaller(1) });
  });
});

describe('error texts', () => {
  it('conversionErrorMessage_byStatus_specTexts', () => {
    expect(conversionErrorMessage({ status: 429 })).to.equal('Limite de requisições excedido');
    expect(conversionErrorMessage({ status: 400 })).to.equal('Dados inválidos');
    expect(conversionErrorMessage({ status: 401, message: 'x' })).to.equal('Não autorizado');
    expect(conversionErrorMessage({ status: 402 })).to.equal('Pagamento necessário');
    expect(conversionErrorMessage({ status: 402, message: 'Créditos insuficientes para fazer conversões.' })).to.equal('Créditos insuficientes para fazer conversões.');
    expect(conversionErrorMessage({ status: 404 })).to.equal('Conversão não encontrada');
    expect(conversionErrorMessage({ status: 503 })).to.equal('Erro interno do servidor');
    expect(conversionErrorMessage({ status: 0 })).to.equal('Erro de conexão');
  });
  it('uploadErrorMessage_rateLimit_saysWhenToRetry', () => {
    expect(uploadErrorMessage({ status: 429, code: 'RATE_LIMIT', retryAfter: 30 })).to.equal('Rate limit atingido. Tente novamente em 30 segundos.');
  });
  it('uploadErrorMessage_otherFailure_erroAoIniciarConversao', () => {
    expect(uploadErrorMessage({ status: 409 })).to.equal('Erro ao iniciar conversão');
  });
  it('pixCreateErrorMessage_byStatus_specTexts', () => {
    expect(pixCreateErrorMessage({ status: 400, message: 'plano inválido' })).to.equal('Erro de validação: plano inválido');
    expect(pixCreateErrorMessage({ status: 401 })).to.equal('Sessão expirada. Faça login novamente.');
    expect(pixCreateErrorMessage({ status: 500 })).to.equal('Erro interno do servidor. Tente novamente em alguns minutos.');
    expect(pixCreateErrorMessage({ status: 404 })).to.equal('Plano não encontrado…');
    expect(pixCreateErrorMessage({ status: 409 })).to.equal('Erro ao criar pagamento PIX');
    // Payments unavailable (a configured provider in its error state): the server's words, not 'Erro interno'.
    expect(pixCreateErrorMessage({ status: 503, message: PAYMENT_MESSAGES.paymentsUnavailable })).to.equal(PAYMENT_MESSAGES.paymentsUnavailable);
  });
  it('passwordChangeFieldErrors_serverTexts_mappedToFields', () => {
    expect(passwordChangeFieldErrors({ status: 400, message: 'Senha atual incorreta' })).to.deep.equal({ currentPassword: 'Senha atual incorreta' });
    expect(passwordChangeFieldErrors({ status: 400, message: 'A nova senha deve ser diferente da senha atual' })).to.deep.equal({
      newPassword: 'A nova senha deve ser diferente da senha atual',
    });
    expect(passwordChangeFieldErrors({ status: 400, message: 'x', fields: { newPassword: 'curta' } })).to.deep.equal({ newPassword: 'curta' });
  });
});

describe('tracker', () => {
  it('trackerState_eachStatus_stepStates', () => {
    expect(Object.values(trackerState(undefined))).to.deep.equal(['pending', 'pending', 'pending', 'pending']);
    expect(Object.values(trackerState('uploading'))).to.deep.equal(['active', 'pending', 'pending', 'pending']);
    expect(Object.values(trackerState('queued', 2))).to.deep.equal(['completed', 'active', 'pending', 'pending']);
    expect(Object.values(trackerState('queued', 0))).to.deep.equal(['completed', 'completed', 'active', 'pending']);
    expect(Object.values(trackerState('processing'))).to.deep.equal(['completed', 'completed', 'active', 'pending']);
    expect(Object.values(trackerState('completed'))).to.deep.equal(['completed', 'completed', 'completed', 'completed']);
    expect(Object.values(trackerState('failed'))).to.deep.equal(['completed', 'completed', 'failed', 'pending']);
  });
});

describe('log console', () => {
  const logs: LogEntry[] = [
    { timestamp: '2025-01-01T10:00:00Z', level: 'info', message: 'Lendo o APK', step: 'reading' },
    { timestamp: '2025-01-01T10:00:01Z', level: 'warning', message: 'Recurso ignorado', step: 'resources' },
    { timestamp: '2025-01-01T10:00:02Z', level: 'success', message: 'AAB gravado', step: 'writing' },
    { timestamp: '2025-01-01T10:00:03Z', level: 'info', message: 'Fim' },
  ];
  it('countLogs_perLevel_counts', () => {
    expect(countLogs(logs)).to.deep.equal({ all: 4, info: 2, success: 1, warning: 1, error: 0 });
  });
  it('filterLogs_levelAndCaseInsensitiveSearchOverMessageAndStep', () => {
    expect(filterLogs(logs, 'info', '')).to.have.length(2);
    expect(filterLogs(logs, 'all', 'RESOURCES').map((l) => l.message)).to.deep.equal(['Recurso ignorado']);
    expect(filterLogs(logs, 'all', 'apk').map((l) => l.message)).to.deep.equal(['Lendo o APK']);
    expect(filterLogs(logs, 'error', 'apk')).to.deep.equal([]);
  });
  it('logsAsText_empty_semLogsDisponiveis', () => {
    expect(logsAsText([])).to.equal('Sem logs disponíveis');
    expect(logsAsText(logs.slice(1, 2))).to.match(/^\[.+\] Aviso \[resources\] Recurso ignorado$/);
    expect(logFileName('abc')).to.equal('conversion-abc-logs.txt');
  });
  it('visibleRange_64pxRowsIn256pxViewport_drawsOnlyVisibleRowsPlusOverscan', () => {
    expect(visibleRange(1000, 0)).to.deep.equal({ start: 0, end: 5 });
    expect(visibleRange(1000, 640)).to.deep.equal({ start: 9, end: 15 });
    expect(visibleRange(3, 0)).to.deep.equal({ start: 0, end: 3 });
  });
});

describe('toasts', () => {
  it('durationFor_variants_specDurations', () => {
    expect(durationFor('info')).to.equal(4000);
    expect(durationFor('danger')).to.equal(4000);
    expect(durationFor('success')).to.equal(2000);
    expect(durationFor('success', true)).to.equal(3000);
  });
  it('withToast_over20_dropsTheOldest', () => {
    let list: ToastItem[] = [];
    for (let i = 1; i <= 25; i++) list = withToast(list, { id: i, variant: 'info', message: String(i), duration: 4000 });
    expect(list).to.have.length(MAX_TOASTS);
    expect(list[0]!.id).to.equal(6);
  });
});
