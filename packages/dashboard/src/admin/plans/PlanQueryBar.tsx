/** The search box, the filter panel and 'Limpar' of the plans admin screen. */
import type { Dispatch } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { PLAN_LIMITS, fromCents, toCents } from '@aabify/shared';
import { MoneyInput } from '../../components/MoneyInput';
import type { PlanFilters, PlansAdminAction } from './plansAdminState';

const SORT_LABELS: Record<string, string> = {
  displayOrder: 'Ordem de exibição',
  name: 'Nome',
  price: 'Preço',
  type: 'Tipo',
  createdAt: 'Criação',
  salesCount: 'Vendas',
  totalRevenue: 'Receita',
};

export function PlanQueryBar({ searchText, filters, showFilters, dispatch }: { searchText: string; filters: PlanFilters; showFilters: boolean; dispatch: Dispatch<PlansAdminAction> }) {
  const setFilter = (key: keyof PlanFilters, value: string) => dispatch({ type: 'filterChanged', key, value });
  return (
    <Card className="mb-3">
      <Card.Body>
        <Form
          className="d-flex flex-wrap gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            dispatch({ type: 'searchSubmitted' });
          }}
        >
          <InputGroup className="flex-grow-1" style={{ maxWidth: 520 }}>
            <Form.Control aria-label="Buscar planos" placeholder="Buscar por nome ou descrição" value={searchText} onChange={(e) => dispatch({ type: 'searchTyped', text: e.target.value })} />
            <Button type="submit" variant="outline-primary" disabled={!searchText.trim()}>Buscar</Button>
          </InputGroup>
          <Button variant="outline-secondary" onClick={() => dispatch({ type: 'filtersToggled' })} aria-expanded={showFilters}>Filtros</Button>
          <Button variant="outline-secondary" onClick={() => dispatch({ type: 'queryCleared' })}>
            Limpar
          </Button>
        </Form>
        <Collapse in={showFilters}>
          <div>
            <div className="row g-2 mt-2">
              <div className="col-6 col-md-3">
                <Form.Label htmlFor="f-type" className="small">Tipo</Form.Label>
                <Form.Select id="f-type" size="sm" value={filters.type} onChange={(e) => setFilter('type', e.target.value)}>
                  <option value="">Todos</option>
                  <option value="subscription">Assinatura</option>
                  <option value="credit">Créditos</option>
                </Form.Select>
              </div>
              <div className="col-6 col-md-3">
                <Form.Label htmlFor="f-status" className="small">Status</Form.Label>
                <Form.Select id="f-status" size="sm" value={filters.status} onChange={(e) => setFilter('status', e.target.value)}>
                  <option value="">Todos</option>
                  <option value="active">Ativos</option>
                  <option value="inactive">Inativos</option>
                </Form.Select>
              </div>
              <div className="col-6 col-md-3">
                <MoneyInput id="f-min" size="sm" label="Preço mínimo" value={filters.minPrice === '' ? null : toCents(Number(filters.minPrice))} onChange={(c) => setFilter('minPrice', c === null ? '' : String(fromCents(c)))} />
              </div>
              <div className="col-6 col-md-3">
                <MoneyInput id="f-max" size="sm" label="Preço máximo" value={filters.maxPrice === '' ? null : toCents(Number(filters.maxPrice))} onChange={(c) => setFilter('maxPrice', c === null ? '' : String(fromCents(c)))} />
              </div>
              <div className="col-6 col-md-4">
                <Form.Label htmlFor="f-sort" className="small">Ordenar por</Form.Label>
                <Form.Select id="f-sort" size="sm" value={filters.sortBy} onChange={(e) => setFilter('sortBy', e.target.value)}>
                  {Object.entries(SORT_LABELS).map(([k, l]) => <option key={k} value={k}>{l}</option>)}
                </Form.Select>
              </div>
              <div className="col-6 col-md-4">
                <Form.Label htmlFor="f-order" className="small">Direção</Form.Label>
                <Form.Select id="f-order" size="sm" value={filters.sortOrder} onChange={(e) => setFilter('sortOrder', e.target.value)}>
                  <option value="asc">Crescente</option>
                  <option value="desc">Decrescente</option>
                </Form.Select>
              </div>
              <div className="col-6 col-md-4">
                <Form.Label htmlFor="f-limit" className="small">Itens por página</Form.Label>
                <Form.Select id="f-limit" size="sm" value={filters.limit} onChange={(e) => setFilter('limit', e.target.value)}>
                  {PLAN_LIMITS.pageSizes.map((n) => <option key={n} value={n}>{n}</option>)}
                </Form.Select>
              </div>
            </div>
          </div>
        </Collapse>
      </Card.Body>
    </Card>
  );
}
