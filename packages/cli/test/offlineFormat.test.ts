import { expect } from 'chai';
import { InvalidArgumentError } from 'commander';
import { createProgress, parseVersionCode } from '../src/commands/convertLocal.js';
import { describeFailure, formatBytes, formatDecimal, formatDensity, formatRows, formatSeconds } from '../src/format.js';
import { ConverterError } from '@aabify/converter';

/** Collects what a Progress writes. */
function sink(): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const stream = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
  return { stream, text: () => out };
}

describe('offline command output', () => {
  it('formatBytes_sizes_ptBrDecimalComma', () => {
    expect(formatBytes(512)).to.equal('512 B');
    expect(formatBytes(9886)).to.equal('9,9 kB');
    expect(formatBytes(6_419_064)).to.equal('6,4 MB');
  });

  it('formatDecimal_sameTextAsIntlPtBr', () => {
    // Byte sizes over 1000 and 1e6, percentages, durations, rounding ties, carries into a new
    // group, negatives (and -0), and values in exponent notation: all as ICU writes them.
    const values = [0, -0, 0.05, 0.04999, -0.01, 0.15, 0.25, 1.25, 1.35, 2.675, 9.95, 99.95, 999.95, 999.949, 1234, 1234.56, 1e-7, -1e-7, 5e-324, 1e21, 1.5e22, 123456789.05, -98765.45];
    let seed = 21;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      const bytes = Math.floor(random() * 10 ** (1 + (i % 12)));
      values.push(bytes / 1000, bytes / 1_000_000, bytes / 1_000_000_000, Math.round(random() * 1000) / 10, random() * 200 - 100);
    }
    for (const minimumFractionDigits of [0, 1] as const) {
      const intl = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, minimumFractionDigits });
      for (const v of values) expect(formatDecimal(v, minimumFractionDigits), String(v)).to.equal(intl.format(v));
    }
    expect(formatSeconds(1234)).to.equal('1,2 s');
    expect(formatBytes(1_234_567_890_123)).to.equal('1.234,6 GB');
  });

  it('formatDensity_knownAndUnnamed', () => {
    expect([160, 0xfffe, 0xffff, 280].map(formatDensity)).to.deep.equal(['mdpi', 'anydpi', 'nodpi', '280dpi']);
  });

  it('formatRows_valuesAlignedInOneColumn', () => {
    expect(formatRows([['Pacote', 'a.b'], ['SDK alvo', '34']])).to.deep.equal(['  Pacote:   a.b', '  SDK alvo: 34']);
  });

  it('parseVersionCode_validAndInvalid', () => {
    expect(parseVersionCode('42')).to.equal(42);
    expect(() => parseVersionCode('-1')).to.throw(InvalidArgumentError, 'número inteiro positivo');
    expect(() => parseVersionCode('2100000001')).to.throw(InvalidArgumentError, 'entre 1 e 2100000000');
  });

  it('describeFailure_converterErrorKeepsCode_otherErrorIsInternal', () => {
    expect(describeFailure(new ConverterError('NOT_A_ZIP', 'eocd'))).to.deep.equal({
      code: 'NOT_A_ZIP',
      message: 'O arquivo não é um APK válido (não é um arquivo ZIP).',
      detail: 'eocd',
    });
    expect(describeFailure(new Error('boom'))).to.deep.equal({ code: 'INTERNAL', message: 'Erro interno do aabify.', detail: 'boom' });
  });

  it('createProgress_notATerminal_oneLinePerStage', () => {
    const s = sink();
    const p = createProgress(s.stream, false);
    p.update('reading', 0);
    p.update('reading', 0.5);
    p.update('writing', 0.1);
    p.update('done', 1);
    p.finish();
    expect(s.text()).to.equal('Lendo o APK…\nGravando o AAB…\n');
  });

  it('createProgress_terminal_barRedrawnInPlaceThenCleared', () => {
    const s = sink();
    const p = createProgress(s.stream, true);
    p.update('resources', 0.5);
    p.update('resources', 0.5);
    p.finish();
    expect(s.text()).to.equal(`\rConvertendo os recursos    [${'#'.repeat(15)}${'-'.repeat(15)}]  50%\r\x1b[2K`);
  });
});
