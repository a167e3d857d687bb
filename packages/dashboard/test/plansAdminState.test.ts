import { expect } from 'chai';
import type { ApiPlan, PlanListResponse } from '@aabify/shared';
import { DEFAULT_FILTERS, canReorder, initialPlansAdminState, planQueryOf, plansAdminReducer, type PlansAdminAction, type PlansAdminState } from '../src/admin/plans/plansAdminState';

const run = (...actions: PlansAdminAction[]): PlansAdminState => actions.reduce(plansAdminReducer, initialPlansAdminState);
const plan = (id: string, currency: ApiPlan['currency'] = 'BRL') => ({ id, currency }) as ApiPlan;
const listOf = (...plans: ApiPlan[]): PlanListResponse => ({ plans, pagination: { total: plans.length, page: 1, limit: 10, pages: 1 } });

describe('plans admin screen state', () => {
  it('search_typedThenSubmitted_filtersFromPage1AndBlankSubmitChangesNothing', () => {
    const s = run({ type: 'pageChosen', page: 3 }, { type: 'searchTyped', text: '  pro  ' }, { type: 'searchSubmitted' });
    expect([s.search, s.page]).to.deep.equal(['pro', 1]);
    const blank = run({ type: 'searchTyped', text: '   ' });
    expect(plansAdminReducer(blank, { type: 'searchSubmitted' })).to.equal(blank);
  });

  it('filterChangedOrCleared_backToPage1AndTheQueryFollows', () => {
    const s = run({ type: 'pageChosen', page: 4 }, { type: 'filterChanged', key: 'type', value: 'credit' });
    expect(s.page).to.equal(1);
    expect(planQueryOf(s)).to.include({ page: 1, type: 'credit', limit: Number(DEFAULT_FILTERS.limit) });
    const cleared = plansAdminReducer({ ...s, searchText: 'x', search: 'x' }, { type: 'queryCleared' });
    expect([cleared.filters, cleared.search, cleared.searchText]).to.deep.equal([DEFAULT_FILTERS, '', '']);
  });

  it('selection_togglesAndWholePage_keptAcrossPagesUntilCleared', () => {
    let s = run({ type: 'planToggled', id: 'a' }, { type: 'pageChosen', page: 2 }, { type: 'planToggled', id: 'b' });
    expect([...s.selected]).to.deep.equal(['a', 'b']);
    s = plansAdminReducer(s, { type: 'planToggled', id: 'a' });
    expect([...s.selected]).to.deep.equal(['b']);
    s = plansAdminReducer(s, { type: 'pageToggled', ids: ['c', 'd'] });
    expect([...s.selected]).to.deep.equal(['c', 'd']);
    s = plansAdminReducer(s, { type: 'pageToggled', ids: ['c', 'd'] });
    expect(s.selected.size).to.equal(0);
  });

  it('loaded_answersOfEveryPage_rememberTheirPlansCurrencies', () => {
    const s = run({ type: 'loadFailed' }, { type: 'loaded', answer: listOf(plan('a')) }, { type: 'loaded', answer: listOf(plan('b', 'USD')) });
    expect(s.loadFailed).to.equal(false);
    expect(s.currencies).to.deep.equal({ a: 'BRL', b: 'USD' });
    expect(s.data?.plans.map((p) => p.id)).to.deep.equal(['b']);
  });

  it('dialogs_oneAtATime', () => {
    const s = run({ type: 'dialogOpened', dialog: { kind: 'compare' } }, { type: 'dialogOpened', dialog: { kind: 'edit', plan: null } });
    expect(s.dialog).to.deep.equal({ kind: 'edit', plan: null });
    expect(plansAdminReducer(s, { type: 'dialogClosed' }).dialog).to.deep.equal({ kind: 'none' });
  });

  it('canReorder_onlyByDisplayOrderAscending', () => {
    expect(canReorder(DEFAULT_FILTERS)).to.equal(true);
    expect(canReorder({ ...DEFAULT_FILTERS, sortOrder: 'desc' })).to.equal(false);
    expect(canReorder({ ...DEFAULT_FILTERS, sortBy: 'name' })).to.equal(false);
  });
});
