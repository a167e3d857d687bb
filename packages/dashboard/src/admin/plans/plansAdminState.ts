/**
 * The state of the plans admin screen as one reducer: the list query (search, filters, page),
 * the selection, the panels shown, the open dialog and the list answer. Pure, so every change of
 * the screen is one named action.
 */
import { PLAN_LIMITS, type ApiPlan, type Currency, type PlanListResponse } from '@aabify/shared';
import type { PlanQuery } from '../../api/admin';

export const DEFAULT_FILTERS = { type: '', status: '', minPrice: '', maxPrice: '', sortBy: 'displayOrder', sortOrder: 'asc', limit: String(PLAN_LIMITS.defaultPageSize) };
export type PlanFilters = typeof DEFAULT_FILTERS;

/** At most one dialog is open: the plan form (null: a new plan), a delete confirmation, the bulk actions' dialogs. */
export type PlansDialog =
  | { kind: 'none' }
  | { kind: 'edit'; plan: ApiPlan | null }
  | { kind: 'delete'; plan: ApiPlan }
  | { kind: 'bulkDelete' }
  | { kind: 'customUpdate' }
  | { kind: 'compare' };

export interface PlansAdminState {
  /** What the search box holds; `search` is what the list is filtered by (set on submit). */
  searchText: string;
  search: string;
  filters: PlanFilters;
  page: number;
  showFilters: boolean;
  showAnalytics: boolean;
  /** Plans selected on earlier pages stay selected. */
  selected: ReadonlySet<string>;
  /** The currency of every plan listed so far, for comparing selected plans of other pages. */
  currencies: Readonly<Record<string, Currency>>;
  dialog: PlansDialog;
  data: PlanListResponse | null;
  loadFailed: boolean;
  /** A bulk action or a delete is running. */
  busy: boolean;
  /** Bumped on every change, so the analytics panel reads again. */
  refreshKey: number;
}

export type PlansAdminAction =
  | { type: 'searchTyped'; text: string }
  | { type: 'searchSubmitted' }
  | { type: 'filterChanged'; key: keyof PlanFilters; value: string }
  | { type: 'queryCleared' }
  | { type: 'pageChosen'; page: number }
  | { type: 'filtersToggled' }
  | { type: 'analyticsToggled' }
  | { type: 'planToggled'; id: string }
  | { type: 'pageToggled'; ids: string[] }
  | { type: 'selectionCleared' }
  | { type: 'dialogOpened'; dialog: PlansDialog }
  | { type: 'dialogClosed' }
  | { type: 'loaded'; answer: PlanListResponse }
  | { type: 'loadFailed' }
  | { type: 'plansMoved'; plans: ApiPlan[] }
  | { type: 'busy'; busy: boolean }
  | { type: 'changed' };

export const initialPlansAdminState: PlansAdminState = {
  searchText: '',
  search: '',
  filters: DEFAULT_FILTERS,
  page: 1,
  showFilters: false,
  showAnalytics: false,
  selected: new Set(),
  currencies: {},
  dialog: { kind: 'none' },
  data: null,
  loadFailed: false,
  busy: false,
  refreshKey: 0,
};

export function plansAdminReducer(state: PlansAdminState, action: PlansAdminAction): PlansAdminState {
  switch (action.type) {
    case 'searchTyped':
      return { ...state, searchText: action.text };
    case 'searchSubmitted':
      return state.searchText.trim() ? { ...state, search: state.searchText.trim(), page: 1 } : state;
    case 'filterChanged':
      return { ...state, filters: { ...state.filters, [action.key]: action.value }, page: 1 };
    case 'queryCleared':
      return { ...state, searchText: '', search: '', filters: DEFAULT_FILTERS, page: 1 };
    case 'pageChosen':
      return { ...state, page: action.page };
    case 'filtersToggled':
      return { ...state, showFilters: !state.showFilters };
    case 'analyticsToggled':
      return { ...state, showAnalytics: !state.showAnalytics };
    case 'planToggled': {
      const selected = new Set(state.selected);
      if (selected.has(action.id)) selected.delete(action.id);
      else selected.add(action.id);
      return { ...state, selected };
    }
    case 'pageToggled': {
      const all = action.ids.length > 0 && action.ids.every((id) => state.selected.has(id));
      return { ...state, selected: all ? new Set() : new Set(action.ids) };
    }
    case 'selectionCleared':
      return { ...state, selected: new Set() };
    case 'dialogOpened':
      return { ...state, dialog: action.dialog };
    case 'dialogClosed':
      return { ...state, dialog: { kind: 'none' } };
    case 'loaded':
      return {
        ...state,
        data: action.answer,
        loadFailed: false,
        currencies: { ...state.currencies, ...Object.fromEntries(action.answer.plans.map((p) => [p.id, p.currency])) },
      };
    case 'loadFailed':
      return { ...state, loadFailed: true };
    case 'plansMoved':
      return state.data ? { ...state, data: { ...state.data, plans: action.plans } } : state;
    case 'busy':
      return { ...state, busy: action.busy };
    case 'changed':
      return { ...state, refreshKey: state.refreshKey + 1 };
  }
}

/** The list request of the state's query. */
export function planQueryOf(state: Pick<PlansAdminState, 'page' | 'filters' | 'search'>): PlanQuery {
  const { filters, page, search } = state;
  return { page, limit: Number(filters.limit), search, type: filters.type, status: filters.status, minPrice: filters.minPrice, maxPrice: filters.maxPrice, sortBy: filters.sortBy, sortOrder: filters.sortOrder };
}

/** Moving rows only means something when the list shows the display order itself. */
export function canReorder(filters: PlanFilters): boolean {
  return filters.sortBy === 'displayOrder' && filters.sortOrder === 'asc';
}
