import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { CURRENCIES, PLAN_LIMITS, PLAN_MESSAGES, PLAN_TYPE_LABELS, formatMoney, planBulkCustomUpdateFormSchema, type ApiPlan, type Currency, type PlanListResponse } from '@aabify/shared';
import { adminApi, type PlanQuery } from '../../api/admin';
import { saveBlob } from '../../api/download';
import { Loading } from '../../components/Loading';
import { movePlan, reorderedDisplayOrders } from '../../lib/planOrder';
import { createQueryCache } from '../../lib/queryCache';
import { toast } from '../../stores/toasts';
import { ConfirmModal, PageList, failureText } from '../common';
import { PlanAnalyticsPanel, planAnalyticsCache } from './PlanAnalyticsPanel';
import { PlanComparisonModal } from './PlanComparisonModal';
import { PlanFormModal } from './PlanFormModal';

const DEFAULT_FILTERS = { type: '', status: '', minPrice: '', maxPrice: '', sortBy: 'displayOrder', sortOrder: 'asc', limit: String(PLAN_LIMITS.defaultPageSize) };
type Filters = typeof DEFAULT_FILTERS;

const SORT_LABELS: Record<string, string> = {
  displayOrder: 'Ordem de exibição',
  name: 'Nome',
  price: 'Preço',
  type: 'Tipo',
  createdAt: 'Criação',
  salesCount: 'Vendas',
  totalRevenue: 'Receita',
};

/** Shared by every visit to the screen; any change made here invalidates it (see reload). */
const planListCache = createQueryCache<PlanListResponse>(PLAN_LIMITS.listFreshMs);

const REORDER_HINT = 'Ordene por "Ordem de exibição" (crescente) para reordenar';

function priceDetail(p: ApiPlan): string {
  if (p.type === 'credit') return `${p.credits ?? 0} créditos`;
  const months = p.subscriptionDetails?.duration ?? 1;
  return `${months} ${months === 1 ? 'mês' : 'meses'}`;
}

function CustomUpdateModal({ show, count, onHide, onApply }: { show: boolean; count: number; onHide(): void; onApply(u: Record<string, unknown>): Promise<void> }) {
  const [price, setPrice] = useState('');
  const [currency, setCurrency] = useState('');
  const [order, setOrder] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (show) {
      setPrice('');
      setCurrency('');
      setOrder('');
      setError(null);
    }
  }, [show]);
  const apply = async () => {
    try {
      const v = await planBulkCustomUpdateFormSchema.validate({ price, currency, displayOrder: order });
      const updates: Record<string, unknown> = {};
      if (v.price !== undefined) updates.price = v.price;
      if (v.currency) updates.currency = v.currency;
      if (v.displayOrder !== undefined) updates.displayOrder = v.displayOrder;
      await onApply(updates);
    } catch (e) {
      setError(e instanceof Error ? e.message : PLAN_MESSAGES.bulkUpdateEmpty);
    }
  };
  return (
    <Modal show={show} onHide={onHide} centered>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title as="h2" className="h5">Atualização personalizada ({count})</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Group className="mb-2" controlId="bulk-price">
          <Form.Label>Preço</Form.Label>
          <Form.Control type="number" min={0} step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} />
        </Form.Group>
        <Form.Group className="mb-2" controlId="bulk-currency">
          <Form.Label>Moeda</Form.Label>
          <Form.Select value={currency} onChange={(e) => setCurrency(e.target.value)}>
            <option value="">Manter</option>
            {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="bulk-order">
          <Form.Label>Ordem de exibição</Form.Label>
          <Form.Control type="number" min={1} step={1} value={order} onChange={(e) => setOrder(e.target.value)} />
        </Form.Group>
        {error && <div className="text-danger small mt-2" role="alert">{error}</div>}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>Cancelar</Button>
        <Button onClick={() => void apply()} disabled={price.trim() === '' && order.trim() === ''}>Aplicar</Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Spec §2.7 'Gerenciamento de Planos'. */
export default function PlansAdminPage() {
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const [showFilters, setShowFilters] = useState(false);
  const [showAnalytics, setShowAnalytics] = useState(false);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<PlanListResponse | null>(null);
  const [error, setError] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<ApiPlan | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ApiPlan | null>(null);
  const [bulkDeleting, setBulkDeleting] = useState(false);
  const [customOpen, setCustomOpen] = useState(false);
  const [comparing, setComparing] = useState(false);
  // Plans selected on earlier pages stay selected; remember their currencies for the comparison.
  const [currencies, setCurrencies] = useState<Record<string, Currency>>({});
  const [busy, setBusy] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);

  const query = useCallback(
    (): PlanQuery => ({ page, limit: Number(filters.limit), search, type: filters.type, status: filters.status, minPrice: filters.minPrice, maxPrice: filters.maxPrice, sortBy: filters.sortBy, sortOrder: filters.sortOrder }),
    [page, filters, search],
  );

  const load = useCallback(async () => {
    try {
      const q = query();
      const answer = await planListCache.read(JSON.stringify(q), () => adminApi.plans(q));
      setData(answer);
      setCurrencies((known) => ({ ...known, ...Object.fromEntries(answer.plans.map((p) => [p.id, p.currency])) }));
      setError(false);
    } catch {
      setError(true);
      toast.error(PLAN_MESSAGES.loadFailed);
    }
  }, [query]);
  useEffect(() => {
    void load();
  }, [load]);

  const reload = async () => {
    planListCache.invalidate();
    planAnalyticsCache.invalidate();
    setRefreshKey((k) => k + 1);
    await load();
  };

  const run = async (fn: () => Promise<{ message: string }>, failure: string) => {
    try {
      const r = await fn();
      toast.success(r.message, { admin: true });
      await reload();
      return true;
    } catch (e) {
      toast.error(failureText(e, failure));
      return false;
    }
  };

  const setFilter = (key: keyof Filters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  };

  const exportCsv = async () => {
    try {
      const { blob, filename } = await adminApi.exportPlans({ ...query(), page: undefined, limit: undefined });
      saveBlob(blob, filename);
      toast.success('Planos exportados', { admin: true });
    } catch (e) {
      toast.error(failureText(e, 'Erro ao exportar planos'));
    }
  };

  const ids = [...selected];
  const bulk = async (updates: Record<string, unknown>) => {
    setBusy(true);
    const ok = await run(() => adminApi.bulkUpdatePlans(ids, updates), 'Erro ao atualizar planos');
    setBusy(false);
    if (ok) setSelected(new Set());
  };

  const plans = data?.plans ?? [];
  // Moving rows only means something when the list shows the display order itself.
  const canReorder = filters.sortBy === 'displayOrder' && filters.sortOrder === 'asc';
  const reorder = async (from: number, to: number) => {
    const planOrders = reorderedDisplayOrders(plans, from, to);
    if (planOrders.length === 0) return;
    setData((d) => d && { ...d, plans: movePlan(d.plans, from, to) });
    if (!(await run(() => adminApi.reorderPlans(planOrders), 'Erro ao reordenar planos'))) await load();
  };
  const endDrag = () => {
    setDragIndex(null);
    setDropIndex(null);
  };
  const allSelected = plans.length > 0 && plans.every((p) => selected.has(p.id));

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">Gerenciamento de Planos</h1>
        <div className="d-flex flex-wrap gap-2">
          <Button variant="outline-secondary" onClick={() => void reload()} aria-label="Atualizar lista">Atualizar</Button>
          <Button variant={showAnalytics ? 'secondary' : 'outline-secondary'} onClick={() => setShowAnalytics((s) => !s)} aria-pressed={showAnalytics}>Analytics</Button>
          <Button variant="outline-secondary" onClick={() => void exportCsv()}>Exportar</Button>
          <Button onClick={() => setEditing(null)} data-testid="new-plan">Novo Plano</Button>
        </div>
      </div>
      {showAnalytics && <PlanAnalyticsPanel refreshKey={refreshKey} />}
      <Card className="mb-3">
        <Card.Body>
          <Form
            className="d-flex flex-wrap gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (!searchText.trim()) return;
              setPage(1);
              setSearch(searchText.trim());
            }}
          >
            <InputGroup className="flex-grow-1" style={{ maxWidth: 520 }}>
              <Form.Control aria-label="Buscar planos" placeholder="Buscar por nome ou descrição" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
              <Button type="submit" variant="outline-primary" disabled={!searchText.trim()}>Buscar</Button>
            </InputGroup>
            <Button variant="outline-secondary" onClick={() => setShowFilters((s) => !s)} aria-expanded={showFilters}>Filtros</Button>
            <Button
              variant="outline-secondary"
              onClick={() => {
                setSearchText('');
                setSearch('');
                setFilters(DEFAULT_FILTERS);
                setPage(1);
              }}
            >
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
                  <Form.Label htmlFor="f-min" className="small">Preço mínimo</Form.Label>
                  <Form.Control id="f-min" size="sm" type="number" min={0} value={filters.minPrice} onChange={(e) => setFilter('minPrice', e.target.value)} />
                </div>
                <div className="col-6 col-md-3">
                  <Form.Label htmlFor="f-max" className="small">Preço máximo</Form.Label>
                  <Form.Control id="f-max" size="sm" type="number" min={0} value={filters.maxPrice} onChange={(e) => setFilter('maxPrice', e.target.value)} />
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

      {selected.size > 0 && (
        <Card className="mb-3 border-primary" data-testid="bulk-bar">
          <Card.Body className="d-flex flex-wrap align-items-center gap-2 py-2">
            <strong>{selected.size} selecionado(s)</strong>
            <Button size="sm" variant="outline-success" disabled={busy} onClick={() => void bulk({ isActive: true })}>Ativar</Button>
            <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => void bulk({ isActive: false })}>Desativar</Button>
            <Button size="sm" variant="outline-warning" disabled={busy} onClick={() => void bulk({ isPopular: true })}>Marcar popular</Button>
            <Button size="sm" variant="outline-primary" disabled={busy} onClick={() => setCustomOpen(true)}>Atualização personalizada</Button>
            <Button size="sm" variant="outline-info" disabled={busy} onClick={() => setComparing(true)}>Comparar desempenho</Button>
            <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => setBulkDeleting(true)}>Excluir</Button>
            <Button size="sm" variant="link" onClick={() => setSelected(new Set())}>Limpar seleção</Button>
          </Card.Body>
        </Card>
      )}

      {error && !data ? (
        <Card body className="text-center">
          <p className="text-danger">{PLAN_MESSAGES.loadFailed}</p>
          <Button onClick={() => void load()}>Tentar Novamente</Button>
        </Card>
      ) : !data ? (
        <Loading />
      ) : (
        <Card>
          <Table responsive hover className="mb-0 align-middle" data-testid="plans-table">
            <thead>
              <tr>
                <th>
                  <Form.Check
                    aria-label="Selecionar todos"
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(plans.map((p) => p.id)))}
                  />
                </th>
                <th title={canReorder ? 'Arraste as linhas ou use as setas' : REORDER_HINT}>Ordem</th>
                <th>Nome</th>
                <th>Tipo</th>
                <th>Preço</th>
                <th>Ativo</th>
                <th>Popular</th>
                <th>Vendas</th>
                <th>Receita</th>
                <th className="text-end">Ações</th>
              </tr>
            </thead>
            <tbody>
              {plans.length === 0 && (
                <tr><td colSpan={10} className="text-center text-body-secondary py-4">{PLAN_MESSAGES.noneFound}</td></tr>
              )}
              {plans.map((p, i) => (
                <tr
                  key={p.id}
                  data-testid={`plan-row-${p.name}`}
                  draggable={canReorder}
                  className={dropIndex === i && dragIndex !== i ? 'table-active plan-drop-target' : dragIndex === i ? 'opacity-50' : undefined}
                  onDragStart={(e) => {
                    setDragIndex(i);
                    e.dataTransfer.effectAllowed = 'move';
                    e.dataTransfer.setData('text/plain', p.id);
                  }}
                  onDragOver={(e) => {
                    if (dragIndex === null) return;
                    e.preventDefault();
                    e.dataTransfer.dropEffect = 'move';
                    if (dropIndex !== i) setDropIndex(i);
                  }}
                  onDrop={(e) => {
                    e.preventDefault();
                    if (dragIndex !== null) void reorder(dragIndex, i);
                    endDrag();
                  }}
                  onDragEnd={endDrag}
                >
                  <td>
                    <Form.Check
                      aria-label={`Selecionar ${p.name}`}
                      checked={selected.has(p.id)}
                      onChange={() =>
                        setSelected((s) => {
                          const n = new Set(s);
                          if (n.has(p.id)) n.delete(p.id);
                          else n.add(p.id);
                          return n;
                        })
                      }
                    />
                  </td>
                  <td className="text-nowrap" data-testid="plan-order">
                    <span className={canReorder ? 'plan-drag-handle me-1' : 'd-none'} aria-hidden="true">⠿</span>
                    <span className="me-1" data-testid="plan-display-order">{p.displayOrder}</span>
                    <Button size="sm" variant="link" className="p-0 px-1" aria-label={`Mover ${p.name} para cima`} title={canReorder ? undefined : REORDER_HINT} disabled={!canReorder || busy || i === 0} onClick={() => void reorder(i, i - 1)}>↑</Button>
                    <Button size="sm" variant="link" className="p-0 px-1" aria-label={`Mover ${p.name} para baixo`} title={canReorder ? undefined : REORDER_HINT} disabled={!canReorder || busy || i === plans.length - 1} onClick={() => void reorder(i, i + 1)}>↓</Button>
                  </td>
                  <td>
                    <div className="fw-semibold">{p.name}</div>
                    {p.description && <div className="small text-body-secondary text-truncate" style={{ maxWidth: 260 }}>{p.description}</div>}
                  </td>
                  <td><Badge bg={p.type === 'credit' ? 'info' : 'primary'}>{PLAN_TYPE_LABELS[p.type]}</Badge></td>
                  <td>
                    {p.formattedPrice}
                    <div className="small text-body-secondary">{priceDetail(p)}</div>
                  </td>
                  <td>
                    <Form.Check type="switch" id={`active-${p.id}`} aria-label={`Ativo: ${p.name}`} checked={p.isActive} onChange={() => void run(() => adminApi.togglePlan(p.id), 'Erro ao alterar status do plano')} />
                  </td>
                  <td>
                    <Form.Check type="switch" id={`popular-${p.id}`} aria-label={`Popular: ${p.name}`} checked={p.isPopular} onChange={() => void run(() => adminApi.setPopular(p.id, !p.isPopular), 'Erro ao alterar popular')} />
                  </td>
                  <td data-testid="plan-sales">{p.salesCount}</td>
                  <td data-testid="plan-revenue">{formatMoney(p.totalRevenueCents, p.currency)}</td>
                  <td className="text-end text-nowrap">
                    <Button size="sm" variant="outline-primary" className="me-1" onClick={() => setEditing(p)}>Editar</Button>
                    <Button size="sm" variant="outline-secondary" className="me-1" onClick={() => void run(() => adminApi.duplicatePlan(p.id, `${p.name} ${PLAN_MESSAGES.copySuffix}`), 'Erro ao duplicar plano')}>
                      Duplicar
                    </Button>
                    <Button size="sm" variant="outline-danger" onClick={() => setDeleting(p)}>Excluir</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Card.Footer className="d-flex flex-wrap justify-content-between align-items-center gap-2">
            <span className="small text-body-secondary">{data.pagination.total} plano(s)</span>
            <PageList page={data.pagination.page} totalPages={data.pagination.pages} onChange={setPage} max={5} />
          </Card.Footer>
        </Card>
      )}

      <PlanComparisonModal show={comparing} planIds={ids} currencies={currencies} onHide={() => setComparing(false)} />
      <PlanFormModal show={editing !== undefined} plan={editing ?? null} onHide={() => setEditing(undefined)} onSaved={() => void reload()} />
      <CustomUpdateModal
        show={customOpen}
        count={selected.size}
        onHide={() => setCustomOpen(false)}
        onApply={async (u) => {
          await bulk(u);
          setCustomOpen(false);
        }}
      />
      <ConfirmModal
        show={deleting !== null}
        title="Excluir plano"
        confirmLabel="Excluir"
        busy={busy}
        onHide={() => setDeleting(null)}
        onConfirm={() => {
          const p = deleting;
          if (!p) return;
          setBusy(true);
          void run(() => adminApi.deletePlan(p.id), 'Erro ao deletar plano').finally(() => {
            setBusy(false);
            setDeleting(null);
          });
        }}
      >
        Excluir o plano <strong>{deleting?.name}</strong>? Um plano com vendas é desativado em vez de excluído.
      </ConfirmModal>
      <ConfirmModal
        show={bulkDeleting}
        title="Excluir planos"
        confirmLabel="Excluir"
        busy={busy}
        onHide={() => setBulkDeleting(false)}
        onConfirm={() => {
          setBusy(true);
          void run(() => adminApi.bulkDeletePlans(ids), 'Erro ao deletar planos').then((ok) => {
            setBusy(false);
            setBulkDeleting(false);
            if (ok) setSelected(new Set());
          });
        }}
      >
        Excluir {selected.size} plano(s) selecionado(s)? Planos com vendas são desativados.
      </ConfirmModal>
    </>
  );
}
