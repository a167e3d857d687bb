import { expect } from 'chai';
import { evenTicks, MAX_DATE_TICKS } from '../src/lib/chartTicks';

describe('chart ticks', () => {
  const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);

  it('evenTicks_thirtyDays_equalStepsFromTheFirstWithinTheLimit', () => {
    const ticks = evenTicks(days, MAX_DATE_TICKS);
    expect(ticks).to.deep.equal(['2026-11-01', '2026-11-06', '2026-11-11', '2026-11-16', '2026-11-21', '2026-11-26']);
    const gaps = ticks.slice(1).map((t, i) => days.indexOf(t) - days.indexOf(ticks[i]!));
    expect(new Set(gaps).size, 'every gap the same').to.equal(1);
  });

  it('evenTicks_fewValuesOrNone_everyValueOrNothing', () => {
    expect(evenTicks(days.slice(0, 4), MAX_DATE_TICKS)).to.deep.equal(days.slice(0, 4));
    expect(evenTicks(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12'], MAX_DATE_TICKS)).to.deep.equal([
      '2026-01', '2026-03', '2026-05', '2026-07', '2026-09', '2026-11',
    ]);
    expect(evenTicks([], MAX_DATE_TICKS)).to.deep.equal([]);
  });
});
