import { expect } from 'chai';
import { APKS_OUTPUT_TEXTS, type ApiConversion, type ConversionUpdate } from '@aabify/shared';
import {
  UNKNOWN_FILE_NAME,
  applyUpdate,
  apksBuilt,
  conversionView,
  mergeLogs,
  newQueuedConversion,
  remainingEstimate,
  statusLabel,
  type ConversionView,
  type LogEntry,
} from '../src/lib/conversion';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const base = (): ConversionView => newQueuedConversion('c1', 'app.apk', 2048);
const log = (i: number, extra: Partial<LogEntry> = {}): LogEntry => ({ timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(), level: 'info', message: `m${i}`, ...extra });
/** A live message of conversion c1, sent at NOW. */
const update = (fields: Omit<ConversionUpdate, 'conversionId' | 'timestamp'> & Partial<ConversionUpdate>): ConversionUpdate => ({ conversionId: 'c1', timestamp: NOW.toISOString(), ...fields });

/** GET /conversion/status of a queued conversion, as the server answers it. */
function answer(fields: Partial<ApiConversion> = {}): ApiConversion {
  return {
    id: 'x', _id: 'x', conversionId: 'x', userId: 'u1', fileName: 'app.apk', originalFileName: 'app.apk', kind: 'apk-to-aab', filename: 'app.aab', fileSize: 1000,
    status: 'queued', progress: 0, step: null, options: {}, error: null, errorCode: null,
    createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', queuedAt: '2025-01-01T00:00:00.000Z', processingStartedAt: null, completedAt: null,
    duration: null, originalSize: 1000, convertedSize: null, aabFile: null, canDownload: false, expiresIn: 3600, filesExpireAt: null, report: null, apks: null, checklist: null,
    queuePosition: 1, totalInQueue: 1, estimatedTime: 120000, averageProcessingTime: 120000, currentlyProcessing: 0, maxConcurrent: 3, lastUpdate: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
}

describe('conversion update reducer', () => {
  it('remainingEstimate_beforeTenPercentTheServersSizeEstimate_thenItsOwnPace', () => {
    const startedAt = new Date(NOW.getTime() - 4000).toISOString();
    // Just started: what the server expects for this input size (a one-second conversion says about a second, not minutes).
    expect(remainingEstimate({ progress: 0, processingStartedAt: startedAt, estimatedTime: 1200 }, NOW.getTime())).to.equal(1200);
    // 40 % in 4 s: 6 s to go.
    expect(remainingEstimate({ progress: 40, processingStartedAt: startedAt, estimatedTime: 120000 }, NOW.getTime())).to.equal(6000);
    expect(remainingEstimate({ progress: 0 }, NOW.getTime())).to.equal(undefined);
  });

  it('newQueuedConversion_created_queuedWithProgressZero', () => {
    const c = base();
    expect(c.status).to.equal('queued');
    expect(c.progress).to.equal(0);
    expect(c.averageProcessingTime).to.equal(300000);
    expect(c.currentlyProcessing).to.equal(1);
    expect(c.maxConcurrent).to.equal(3);
  });

  it('progress_fromQueued_setsProgressMovesToProcessingAndAppendsLog', () => {
    const c = applyUpdate(base(), update({ type: 'progress', progress: 42.4, message: 'Convertendo recursos', step: 'resources' }), NOW);
    expect(c.progress).to.equal(42);
    expect(c.status).to.equal('processing');
    expect(c.logs).to.deep.equal([{ timestamp: NOW.toISOString(), level: 'info', message: 'Convertendo recursos', step: 'resources' }]);
    expect(c.lastUpdate).to.equal(NOW.getTime());
  });

  it('progress_outOfRange_clampedTo0And100', () => {
    expect(applyUpdate(base(), update({ type: 'progress', progress: 140 }), NOW).progress).to.equal(100);
    expect(applyUpdate(base(), update({ type: 'progress', progress: -3 }), NOW).progress).to.equal(0);
  });

  it('queuePosition_update_setsEveryQueueField', () => {
    const c = applyUpdate(
      base(),
      update({ type: 'queue_position', position: 3, estimatedTime: 240000, totalWaiting: 5, averageProcessingTime: 90000, currentlyProcessing: 2, maxConcurrent: 4 }),
      NOW,
    );
    expect([c.queuePosition, c.estimatedTime, c.totalInQueue, c.averageProcessingTime, c.currentlyProcessing, c.maxConcurrent]).to.deep.equal([3, 240000, 5, 90000, 2, 4]);
    expect(c.status).to.equal('queued');
  });

  it('queuePosition_zeroOrStatus_changesStatusToProcessing', () => {
    expect(applyUpdate(base(), update({ type: 'queue_position', position: 0 }), NOW).status).to.equal('processing');
    expect(applyUpdate(base(), update({ type: 'queue_position', position: 2, queuePosition: 2, status: 'processing' }), NOW).status).to.equal('processing');
  });

  it('statusChange_update_setsStatus', () => {
    const c = applyUpdate(base(), update({ type: 'status_change', status: 'processing', progress: 5 }), NOW);
    expect(c.status).to.equal('processing');
    expect(c.progress).to.equal(5);
    expect(c.processingStartedAt).to.equal(NOW.toISOString());
  });

  it('completed_withoutFields_defaultsCanDownloadAndAabName', () => {
    const c = applyUpdate(base(), update({ type: 'completed' }), NOW);
    expect(c.status).to.equal('completed');
    expect(c.progress).to.equal(100);
    expect(c.canDownload).to.equal(true);
    expect(c.filename).to.equal('app.aab');
  });

  it('aabDeviceSet_viewSaysWhatWasBuilt_completedWithoutFieldsNamedDotApks', () => {
    const asked = conversionView(answer({ fileName: 'Meu App.aab', kind: 'aab-to-apks', filename: 'Meu App.apks', options: { output: 'device-set', device: 'x86_64_xhdpi_es' } }));
    expect([asked.output, asked.device]).to.deep.equal(['device-set', 'x86_64_xhdpi_es']);
    // Before the report, the profile's id; once built, its name.
    expect(apksBuilt(asked)).to.equal(APKS_OUTPUT_TEXTS.builtDeviceSet('x86_64_xhdpi_es'));
    const label = 'Chromebook / emulador (x86_64, xhdpi, es)';
    expect(apksBuilt({ ...asked, apks: { ...({} as NonNullable<ConversionView['apks']>), device: { id: 'x86_64_xhdpi_es', label } } })).to.equal(APKS_OUTPUT_TEXTS.builtDeviceSet(label));
    expect(apksBuilt(conversionView(answer({ kind: 'aab-to-apks', fileName: 'Meu App.aab' })))).to.equal(APKS_OUTPUT_TEXTS.universal);
    const done = applyUpdate(newQueuedConversion('c1', 'Meu App.aab', 2048, { kind: 'aab-to-apks', output: 'device-set' }), update({ type: 'completed' }), NOW);
    expect(done.filename).to.equal('Meu App.apks');
  });

  it('completed_withFields_storesSizeExpiryAndServerValues', () => {
    const c = applyUpdate(base(), update({ type: 'completed', canDownload: false, filename: 'x.aab', fileSize: 1500, expiresIn: 3600 }), NOW);
    expect([c.canDownload, c.filename, c.convertedSize, c.expiresIn]).to.deep.equal([false, 'x.aab', 1500, 3600]);
  });

  it('completed_unknownFileName_namedConvertedAab', () => {
    expect(applyUpdate({ ...base(), fileName: UNKNOWN_FILE_NAME }, update({ type: 'completed' }), NOW).filename).to.equal('converted.aab');
  });

  it('error_withoutText_failedWithErroDesconhecido', () => {
    const c = applyUpdate(base(), update({ type: 'error' }), NOW);
    expect(c.status).to.equal('failed');
    expect(c.error).to.equal('Erro desconhecido');
  });

  it('error_withText_failedWithThatText', () => {
    const c = applyUpdate(base(), update({ type: 'error', error: 'O arquivo não é um APK válido' }), NOW);
    expect(c.error).to.equal('O arquivo não é um APK válido');
    expect(c.logs.at(-1)?.level).to.equal('error');
  });

  it('log_update_appendsTheEntry', () => {
    const c = applyUpdate(base(), update({ type: 'log', log: { id: 'l1', timestamp: '2025-01-01T00:00:00.000Z', level: 'warning', message: 'Aviso', step: 'manifest' } }), NOW);
    expect(c.logs).to.deep.equal([{ id: 'l1', timestamp: '2025-01-01T00:00:00.000Z', level: 'warning', message: 'Aviso', step: 'manifest' }]);
  });

  it('update_forAnotherConversion_ignored', () => {
    const s = base();
    expect(applyUpdate(s, update({ type: 'progress', progress: 50, conversionId: 'other' }), NOW)).to.equal(s);
  });

  it('update_unknownType_ignored', () => {
    const s = base();
    // A message type this page does not know (a newer server): nothing changes.
    expect(applyUpdate(s, { ...update({ type: 'progress' }), type: 'ping' } as unknown as ConversionUpdate, NOW)).to.equal(s);
  });
});

describe('log de-duplication', () => {
  it('mergeLogs_sameId_ignored', () => {
    const a = log(1, { id: 'x' });
    expect(mergeLogs([a], [{ ...a, message: 'different text' }])).to.have.length(1);
  });

  it('mergeLogs_sameTimestampAndMessage_ignored', () => {
    expect(mergeLogs([log(1)], [log(1), log(2)])).to.deep.equal([log(1), log(2)]);
  });

  it('mergeLogs_idLessCopyOfAnEntryWithId_ignored', () => {
    expect(mergeLogs([log(1, { id: 'x' })], [log(1)])).to.have.length(1);
  });

  it('mergeLogs_sameMessageOtherTime_kept', () => {
    expect(mergeLogs([log(1)], [{ ...log(2), message: 'm1' }])).to.have.length(2);
  });

  it('mergeLogs_over200_keepsTheLast200', () => {
    const many = Array.from({ length: 250 }, (_, i) => log(i));
    const merged = mergeLogs([], many);
    expect(merged).to.have.length(200);
    expect(merged[0]!.message).to.equal('m50');
    expect(merged.at(-1)!.message).to.equal('m249');
  });

  it('applyUpdate_duplicateLogTwice_appendsOnce', () => {
    const entry = { id: 'l1', timestamp: '2025-01-01T00:00:00.000Z', level: 'info', message: 'a', step: null } as const;
    let c = applyUpdate(base(), update({ type: 'log', log: entry }), NOW);
    c = applyUpdate(c, update({ type: 'log', log: entry }), NOW);
    expect(c.logs).to.have.length(1);
  });
});

describe('conversion view of a server answer', () => {
  it('conversionView_queuedAnswer_queueFieldsAndNoDownload', () => {
    const c = conversionView(answer());
    expect([c.id, c.fileName, c.status, c.progress, c.queuePosition, c.totalInQueue, c.estimatedTime, c.canDownload]).to.deep.equal(['x', 'app.apk', 'queued', 0, 1, 1, 120000, false]);
    expect(c.createdAt).to.equal('2025-01-01T00:00:00.000Z');
    expect(c.completedAt).to.equal(undefined);
    expect(c.error).to.equal(undefined);
  });

  it('conversionView_noFileNameAndProgressOver100_placeholderNameAndClamped', () => {
    const c = conversionView(answer({ fileName: '', status: 'processing', progress: 250 }));
    expect(c.fileName).to.equal('Arquivo em processamento');
    expect(c.progress).to.equal(100);
    expect(c.maxConcurrent).to.equal(3);
  });

  it('conversionView_completedAnswer_sizesAabAndLogs', () => {
    const c = conversionView(
      answer({
        status: 'completed', progress: 100, canDownload: true, convertedSize: 800, aabFile: { filename: 'app.aab', size: 800 }, duration: 4000,
        logs: [{ id: 'l1', timestamp: '2025-01-01T00:00:01.000Z', level: 'success', message: 'Pronto', step: null }],
      }),
    );
    expect([c.fileName, c.filename, c.originalSize, c.convertedSize, c.duration, c.canDownload]).to.deep.equal(['app.apk', 'app.aab', 1000, 800, 4000, true]);
    expect(c.logs).to.deep.equal([{ id: 'l1', timestamp: '2025-01-01T00:00:01.000Z', level: 'success', message: 'Pronto' }]);
  });

  it('statusLabel_fourShownStatuses_elseStatusDesconhecido', () => {
    expect(['queued', 'processing', 'completed', 'failed'].map(statusLabel)).to.deep.equal(['Na Fila', 'Processando', 'Concluído', 'Falhou']);
    expect(statusLabel('cancelled')).to.equal('Status Desconhecido');
    expect(statusLabel(undefined)).to.equal('Status Desconhecido');
  });
});
