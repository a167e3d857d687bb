import { expect } from 'chai';
import { checkDroppedFiles, maxFileSizeFromAnswer, MAX_APK_BYTES } from '../src/lib/apkFile';
import { newQueuedConversion, type LogEntry } from '../src/lib/conversion';
import { logEntriesFromAnswer, mergeLogsInOrder } from '../src/lib/logs';
import { useConversions } from '../src/stores/conversions';

const at = (s: number, message: string, extra: Partial<LogEntry> = {}): LogEntry => ({
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString(),
  level: 'info',
  message,
  ...extra,
});

describe('conversion page: stored logs merged with live ones', () => {
  it('mergeLogsInOrder_storedEntriesBeforeLiveOnes_putsThemFirstInTimeOrder', () => {
    const live = [at(3, 'Convertendo', { id: '3' }), at(4, 'Empacotando', { id: '4' })];
    const stored = [at(1, 'Arquivo recebido: app.apk', { id: '1' }), at(2, 'Conversão adicionada à fila', { id: '2' }), at(3, 'Convertendo', { id: '3' })];
    expect(mergeLogsInOrder(live, stored).map((l) => l.message)).to.deep.equal(['Arquivo recebido: app.apk', 'Conversão adicionada à fila', 'Convertendo', 'Empacotando']);
  });

  it('mergeLogsInOrder_sameTimestampAndMessageWithoutId_keptOnce', () => {
    const cached = [at(1, 'Arquivo recebido')];
    const stored = [at(1, 'Arquivo recebido', { id: '7' }), at(2, 'Na fila', { id: '8' })];
    const merged = mergeLogsInOrder(cached, stored);
    expect(merged.map((l) => l.message)).to.deep.equal(['Arquivo recebido', 'Na fila']);
  });

  it('mergeLogsInOrder_sameIdDifferentShape_keptOnce', () => {
    const merged = mergeLogsInOrder([at(5, 'x', { id: '9' })], [at(5, 'x', { id: '9', step: 'upload' })]);
    expect(merged).to.have.length(1);
  });

  it('mergeLogsInOrder_sameMillisecond_serverIdBreaksTheTie', () => {
    const merged = mergeLogsInOrder([at(1, 'segundo', { id: '11' })], [at(1, 'primeiro', { id: '10' })]);
    expect(merged.map((l) => l.message)).to.deep.equal(['primeiro', 'segundo']);
  });

  it('mergeLogsInOrder_overTheCap_keepsTheNewest', () => {
    const many = Array.from({ length: 5 }, (_, i) => at(i, `m${i}`, { id: String(i) }));
    expect(mergeLogsInOrder(many.slice(2), many.slice(0, 2), 3).map((l) => l.message)).to.deep.equal(['m2', 'm3', 'm4']);
  });

  it('mergeLogsInOrder_unreadableTime_goesLastWithoutBreakingTheOrder', () => {
    const merged = mergeLogsInOrder([{ timestamp: 'x', level: 'info', message: 'sem hora' }, at(2, 'b')], [at(1, 'a')]);
    expect(merged.map((l) => l.message)).to.deep.equal(['a', 'b', 'sem hora']);
  });

  it('logEntriesFromAnswer_logsAnswer_linesWithTheirStepWhenTheyHaveOne', () => {
    const entries = logEntriesFromAnswer({
      conversionId: 'c1',
      total: 2,
      logs: [
        { id: '1', timestamp: '2025-01-01T00:00:01.000Z', level: 'info', message: 'ok', step: 'upload' },
        { id: '2', timestamp: '2025-01-01T00:00:02.000Z', level: 'warning', message: 'sem etapa', step: null },
      ],
    });
    expect(entries).to.deep.equal([
      { id: '1', timestamp: '2025-01-01T00:00:01.000Z', level: 'info', message: 'ok', step: 'upload' },
      { id: '2', timestamp: '2025-01-01T00:00:02.000Z', level: 'warning', message: 'sem etapa' },
    ]);
  });
});

describe('conversion store: stored logs and clear', () => {
  beforeEach(() => useConversions.getState().reset());

  it('addLogs_currentConversion_mergesInOrder', () => {
    const s = useConversions.getState();
    s.track(newQueuedConversion('c1', 'app.apk', 10, { logs: [at(3, 'ao vivo', { id: '3' })] }));
    useConversions.getState().addLogs('c1', [at(1, 'Arquivo recebido', { id: '1' }), at(3, 'ao vivo', { id: '3' })]);
    expect(useConversions.getState().current!.logs.map((l) => l.message)).to.deep.equal(['Arquivo recebido', 'ao vivo']);
  });

  it('addLogs_otherConversion_ignored', () => {
    useConversions.getState().track(newQueuedConversion('c1', 'app.apk', 10));
    useConversions.getState().addLogs('c2', [at(1, 'outra', { id: '1' })]);
    expect(useConversions.getState().current!.logs).to.deep.equal([]);
  });

  it('addLogs_readStartedBeforeAClear_doesNotBringTheEntriesBack', () => {
    useConversions.getState().track(newQueuedConversion('c1', 'app.apk', 10, { logs: [at(1, 'a', { id: '1' })] }));
    const epoch = useConversions.getState().logsEpoch;
    useConversions.getState().clearLogs('c1');
    expect(useConversions.getState().current!.logs).to.deep.equal([]);
    useConversions.getState().addLogs('c1', [at(1, 'a', { id: '1' })], epoch);
    expect(useConversions.getState().current!.logs).to.deep.equal([]);
    useConversions.getState().addLogs('c1', [at(2, 'depois', { id: '2' })], useConversions.getState().logsEpoch);
    expect(useConversions.getState().current!.logs.map((l) => l.message)).to.deep.equal(['depois']);
  });
});

describe('drop-zone size limit from the setting', () => {
  it('maxFileSizeFromAnswer_validAnswer_bytes', () => {
    expect(maxFileSizeFromAnswer({ maxFileSize: 1048576 })).to.equal(1048576);
    expect(maxFileSizeFromAnswer({ maxFileSize: '2097152' })).to.equal(2097152);
  });

  it('maxFileSizeFromAnswer_unusableAnswer_undefined', () => {
    for (const body of [null, 'x', {}, { maxFileSize: -1 }, { maxFileSize: 'abc' }, { maxFileSize: Number.NaN }]) {
      expect(maxFileSizeFromAnswer(body), JSON.stringify(body)).to.equal(undefined);
    }
  });

  it('maxFileSizeFromAnswer_zero_noLimit', () => {
    expect(maxFileSizeFromAnswer({ maxFileSize: 0 })).to.equal(Infinity);
    expect(checkDroppedFiles([{ name: 'game.apk', size: 900 * 1024 * 1024, type: '' }], Infinity)).to.deep.equal({ ok: true });
  });

  it('checkDroppedFiles_settingOf1MB_rejectsLargerWithTheRealLimit', () => {
    const mb = 1024 * 1024;
    expect(checkDroppedFiles([{ name: 'a.apk', size: mb + 1, type: '' }], mb)).to.deep.equal({ ok: false, error: 'O arquivo excede o limite de 1MB' });
    expect(checkDroppedFiles([{ name: 'a.apk', size: mb, type: '' }], mb)).to.deep.equal({ ok: true });
    expect(checkDroppedFiles([{ name: 'a.apk', size: mb + 1, type: '' }]).ok).to.equal(MAX_APK_BYTES > mb + 1);
  });
});
