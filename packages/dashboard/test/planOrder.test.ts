import { expect } from 'chai';
import { movePlan, reorderedDisplayOrders } from '../src/lib/planOrder.js';

const rows = (...orders: number[]) => orders.map((displayOrder, i) => ({ id: `p${i + 1}`, displayOrder }));

describe('plan reordering', () => {
  it('movePlan_lastToFirst_othersShiftDown', () => {
    expect(movePlan(['a', 'b', 'c'], 2, 0)).to.deep.equal(['c', 'a', 'b']);
    expect(movePlan(['a', 'b', 'c'], 0, 2)).to.deep.equal(['b', 'c', 'a']);
  });

  it('movePlan_outOfRangeOrSamePlace_unchangedCopy', () => {
    const list = ['a', 'b'];
    const same = movePlan(list, 1, 1);
    expect(same).to.deep.equal(list);
    expect(same).to.not.equal(list);
    expect(movePlan(list, 0, 5)).to.deep.equal(list);
  });

  it('reordered_distinctValues_keepsTheValuesAndSendsOnlyChanges', () => {
    // p3 (order 30) moved to the top: it takes 10, p1 takes 20, p2 takes 30.
    expect(reorderedDisplayOrders(rows(10, 20, 30, 40), 2, 0)).to.deep.equal([
      { planId: 'p3', displayOrder: 10 },
      { planId: 'p1', displayOrder: 20 },
      { planId: 'p2', displayOrder: 30 },
    ]);
  });

  it('reordered_equalValues_spreadSoTheMoveTakesEffect', () => {
    // p2 already holds 1, so only p1 and p3 are sent.
    expect(reorderedDisplayOrders(rows(1, 1, 1), 0, 1)).to.deep.equal([
      { planId: 'p1', displayOrder: 2 },
      { planId: 'p3', displayOrder: 3 },
    ]);
  });

  it('reordered_zeroOrders_startAtOne', () => {
    expect(reorderedDisplayOrders(rows(0, 0), 1, 0)).to.deep.equal([
      { planId: 'p2', displayOrder: 1 },
      { planId: 'p1', displayOrder: 2 },
    ]);
  });

  it('reordered_noMove_nothingToSend', () => {
    expect(reorderedDisplayOrders(rows(1, 2, 3), 1, 1)).to.deep.equal([]);
  });
});
