import { expect } from 'chai';
import type { LogEntry } from '../src/lib/conversion';
import { countLogs, filterLogs, logFileName, logsAsText, visibleRange } from '../src/lib/logs';

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
    expect(filterLogs(logs, 'all', 'RECURSOS').map((l) => l.message)).to.deep.equal(['Recurso ignorado']);
    expect(filterLogs(logs, 'all', 'apk').map((l) => l.message)).to.deep.equal(['Lendo o APK']);
    expect(filterLogs(logs, 'error', 'apk')).to.deep.equal([]);
  });
  it('logsAsText_empty_semLogsDisponiveis', () => {
    expect(logsAsText([])).to.equal('Sem logs disponíveis');
    expect(logsAsText(logs.slice(1, 2))).to.match(/^\[.+\] Aviso \[recursos\] Recurso ignorado$/);
    expect(logFileName('abc')).to.equal('conversion-abc-logs.txt');
  });
  it('visibleRange_64pxRowsIn256pxViewport_drawsOnlyVisibleRowsPlusOverscan', () => {
    expect(visibleRange(1000, 0)).to.deep.equal({ start: 0, end: 5 });
    expect(visibleRange(1000, 640)).to.deep.equal({ start: 9, end: 15 });
    expect(visibleRange(3, 0)).to.deep.equal({ start: 0, end: 3 });
  });
});
