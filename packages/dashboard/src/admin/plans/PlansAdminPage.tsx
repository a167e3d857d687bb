import { useCallback, useEffect, useState, type DragEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import { CURRENCIES, PLAN_LIMITS, PLAN_MESSAGES, PLAN_TYPE_LABELS, countOf, formatMoney, formatNumber, fromCents, toCents, planBulkCustomUpdateFormSchema, type ApiPlan, type Currency, type PlanListResponse } from '@aabify/shared';
import { adminApi, type PlanQuery } from '../../api/admin';
import { saveBlob } from '../../api/download';
import { ActionMenu } from '../../components/ActionMenu';
import { DataList } from '../../components/DataList';
import { Icon } from '../../components/Icon';
import { MoneyInput } from '../../components/MoneyInput';
import { PageHeader } from '../../components/PageHeader';
import { SkeletonRows } from '../../components/Skeleton';
import { Truncate } from '../../components/Truncate';
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
  if (p.type === 'credit') return countOf(p.credits ?? 0, 'crédito', 'créditos');
  return countOf(p.subscriptionDetails?.duration ?? 1, 'mês', 'meses');
}

function CustomUpdateModal({ show, count, onHide, onApply }: { show: boolean; count: number; onHide(): void; onApply(u: Record<string, unknown>): Promise<void> }) {
  const [priceCents, setPriceCents] = useState<number | null>(null);
  const [currency, setCurrency] = useState('');
  const [order, setOrder] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (show) {
      setPriceCents(null);
      setCurrency('');
      setOrder('');
      setError(null);
    }
  }, [show]);
  const apply = async () => {
    try {
      const v = await planBulkCustomUpdateFormSchema.validate({ price: priceCents === null ? '' : fromCents(priceCents), currency, displayOrder: order });
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
        <MoneyInput id="bulk-price" label="Preço" value={priceCents} onChange={setPriceCents} preview={(c) => `Os planos selecionados passarão a custar ${formatMoney(c)}`} />
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
        <Button onClick={() => void apply()} disabled={priceCents === null && order.trim() === ''}>Aplicar</Button>
      </Modal.Footer>
    </Modal>
  );
}

/** 'Gerenciamento de Planos' (docs/admin.md). */
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
      <PageHeader
        title="Gerenciamento de Planos"
        actions={
          <>
            <Button variant="outline-secondary" onClick={() => void reload()} aria-label="Atualizar lista"><Icon name="arrow-repeat" className="me-1" />Atualizar</Button>
            <Button variant={showAnalytics ? 'secondary' : 'outline-secondary'} onClick={() => setShowAnalytics((s) => !s)} aria-pressed={showAnalytics}>Desempenho</Button>
            <Button variant="outline-secondary" onClick={() => void exportCsv()}><Icon name="download" className="me-1" />Exportar</Button>
            <Button onClick={() => setEditing(null)} data-testid="new-plan"><Icon name="plus-lg" className="me-1" />Novo Plano</Button>
          </>
        }
      />
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

      {selected.size > 0 && (
        <Card className="mb-3 border-primary" data-testid="bulk-bar">
          <Card.Body className="d-flex flex-wrap align-items-center gap-2 py-2">
            <strong>{countOf(selected.size, 'plano selecionado', 'planos selecionados')}</strong>
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
        <SkeletonRows testId="plans-loading" />
      ) : (
        <>
          <DataList<ApiPlan>
            items={plans}
            rowKey={(p) => p.id}
            testId="plans-table"
            caption="Planos"
            empty={PLAN_MESSAGES.noneFound}
            rowProps={(p, i) => ({
              'data-testid': `plan-row-${p.name}`,
              draggable: canReorder,
              className: dropIndex === i && dragIndex !== i ? 'table-active plan-drop-target' : dragIndex === i ? 'opacity-50' : undefined,
              onDragStart: (e: DragEvent<HTMLElement>) => {
                setDragIndex(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', p.id);
              },
              onDragOver: (e: DragEvent<HTMLElement>) => {
                if (dragIndex === null) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                if (dropIndex !== i) setDropIndex(i);
              },
              onDrop: (e: DragEvent<HTMLElement>) => {
                e.preventDefault();
                if (dragIndex !== null) void reorder(dragIndex, i);
                endDrag();
              },
              onDragEnd: endDrag,
            })}
            lead={{
              header: <Form.Check aria-label="Selecionar todos" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(plans.map((p) => p.id)))} />,
              render: (p) => (
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
              ),
            }}
            columns={[
              {
                key: 'order',
                header: <span title={canReorder ? 'Arraste as linhas ou use as setas' : REORDER_HINT}>Ordem</span>,
                className: 'text-nowrap',
                render: (p) => {
                  const i = plans.indexOf(p);
                  return (
                    <span data-testid="plan-order">
                      <span className={canReorder ? 'plan-drag-handle me-1' : 'd-none'} aria-hidden="true"><Icon name="grip-vertical" /></span>
                      <span className="me-1" data-testid="plan-display-order">{formatNumber(p.displayOrder)}</span>
                      <Button size="sm" variant="link" className="p-0 px-1" aria-label={`Mover ${p.name} para cima`} title={canReorder ? undefined : REORDER_HINT} disabled={!canReorder || busy || i === 0} onClick={() => void reorder(i, i - 1)}><Icon name="arrow-up" /></Button>
                      <Button size="sm" variant="link" className="p-0 px-1" aria-label={`Mover ${p.name} para baixo`} title={canReorder ? undefined : REORDER_HINT} disabled={!canReorder || busy || i === plans.length - 1} onClick={() => void reorder(i, i + 1)}><Icon name="arrow-down" /></Button>
                    </span>
                  );
                },
              },
              {
                key: 'name',
                header: 'Nome',
                primary: true,
                render: (p) => (
                  <>
                    <div className="fw-semibold text-break-word">{p.name}</div>
                    {p.description && <Truncate text={p.description} max="260px" className="small text-body-secondary" />}
                  </>
                ),
              },
              { key: 'type', header: 'Tipo', render: (p) => <Badge bg={p.type === 'credit' ? 'info' : 'primary'} text={p.type === 'credit' ? 'dark' : undefined}>{PLAN_TYPE_LABELS[p.type]}</Badge> },
              {
                key: 'price',
                header: 'Preço',
                className: 'text-nowrap',
                render: (p) => (
                  <>
                    {p.formattedPrice}
                    <div className="small text-body-secondary">{priceDetail(p)}</div>
                  </>
                ),
              },
              { key: 'active', header: 'Ativo', render: (p) => <Form.Check type="switch" id={`active-${p.id}`} aria-label={`Ativo: ${p.name}`} checked={p.isActive} onChange={() => void run(() => adminApi.togglePlan(p.id), 'Erro ao alterar status do plano')} /> },
              { key: 'popular', header: 'Popular', render: (p) => <Form.Check type="switch" id={`popular-${p.id}`} aria-label={`Popular: ${p.name}`} checked={p.isPopular} onChange={() => void run(() => adminApi.setPopular(p.id, !p.isPopular), 'Erro ao alterar popular')} /> },
              { key: 'sales', header: 'Vendas', render: (p) => <span data-testid="plan-sales">{formatNumber(p.salesCount)}</span> },
              { key: 'revenue', header: 'Receita', className: 'text-nowrap', render: (p) => <span data-testid="plan-revenue">{formatMoney(p.totalRevenueCents, p.currency)}</span> },
            ]}
            actions={(p) => (
              <>
                <Button size="sm" variant="outline-primary" onClick={() => setEditing(p)}>
                  <Icon name="pencil" className="me-1" />
                  Editar
                </Button>
                <ActionMenu
                  label={`Mais ações para ${p.name}`}
                  actions={[
                    { label: 'Duplicar', icon: 'copy', onSelect: () => void run(() => adminApi.duplicatePlan(p.id, `${p.name} ${PLAN_MESSAGES.copySuffix}`), 'Erro ao duplicar plano') },
                    { label: 'Excluir', icon: 'trash', danger: true, onSelect: () => setDeleting(p) },
                  ]}
                />
              </>
            )}
          />
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
            <span className="small text-body-secondary">{countOf(data.pagination.total, 'plano', 'planos')}</span>
            <PageList page={data.pagination.page} totalPages={data.pagination.pages} onChange={setPage} max={5} />
          </div>
        </>
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
        Excluir {countOf(selected.size, 'plano selecionado', 'planos selecionados')}? Planos com vendas são desativados.
      </ConfirmModal>
    </>
  );
}
