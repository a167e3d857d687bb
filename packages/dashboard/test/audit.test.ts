import { expect } from 'chai';
import { auditChangeRows, auditDateRange, auditValueText } from '../src/lib/audit';

describe('audit screens', () => {
  it('auditDateRange_twoDays_fromStartOfFirstToEndOfLast', () => {
    const { from, to } = auditDateRange('2025-03-01', '2025-03-02');
    expect(new Date(from!).getTime()).to.equal(new Date('2025-03-01T00:00:00').getTime());
    expect(new Date(to!).getTime() - new Date(from!).getTime()).to.equal(2 * 86_400_000 - 1);
    expect(auditDateRange('', '')).to.deep.equal({ from: undefined, to: undefined });
    expect(auditDateRange('não é data', '')).to.deep.equal({ from: undefined, to: undefined });
  });

  it('auditChangeRows_bothSides_everyFieldOnceWithWhatChanged', () => {
    expect(auditChangeRows({ credits: 10, name: 'A' }, { credits: 15, name: 'A', role: 'admin' })).to.deep.equal([
      { field: 'credits', before: 10, after: 15, changed: true },
      { field: 'name', before: 'A', after: 'A', changed: false },
      { field: 'role', before: undefined, after: 'admin', changed: true },
    ]);
    expect(auditChangeRows(null, null)).to.deep.equal([]);
  });

  it('auditValueText_eachKind_readable', () => {
    expect([null, undefined, '', true, false, 3, 'x', ['a'], { a: 1 }].map(auditValueText)).to.deep.equal(['—', '—', '—', 'Sim', 'Não', '3', 'x', '["a"]', '{"a":1}']);
  });
});
