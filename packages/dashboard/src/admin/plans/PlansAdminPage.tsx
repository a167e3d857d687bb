/**
 * 'Gerenciamento de Planos': the plans list with search, filters, selection and bulk actions,
 * display order, analytics and the plan dialogs. Its state is one reducer (plansAdminState.ts);
 * the parts of the screen are the components beside this file.
 */
import { useCallback, useEffect, useReducer } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { PLAN_LIMITS, PLAN_MESSAGES, countOf, type PlanListResponse } from '@aabify/shared';
import { adminApi } from '../../api/admin';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { SkeletonRows } from '../../components/Skeleton';
import { movePlan, reorderedDisplayOrders } from '../../lib/planOrder';
import { createQueryCache } from '../../lib/queryCache';
import { toast } from '../../stores/toasts';
import { ConfirmModal, PageList, failureText } from '../common';
import { CustomUpdateModal } from './CustomUpdateModal';
import { PlanAnalyticsPanel, planAnalyticsCache } from './PlanAnalyticsPanel';
import { PlanComparisonModal } from './PlanComparisonModal';
import { PlanFormModal } from './PlanFormModal';
import { PlanQueryBar } from './PlanQueryBar';
import { PlansBulkBar } from './PlansBulkBar';
import { PlansTable } from './PlansTable';
import { canReorder, initialPlansAdminState, planQueryOf, plansAdminReducer } from './plansAdminState';

/** Shared by every visit to the screen; any change made here invalidates it (see reload). */
const planListCache = createQueryCache<PlanListResponse>(PLAN_LIMITS.listFreshMs);

export default function PlansAdminPage() {
  const [state, dispatch] = useReducer(plansAdminReducer, initialPlansAdminState);
  const { page, filters, search, selected, dialog, data, busy } = state;

  const load = useCallback(() => {
    const q = planQueryOf({ page, filters, search });
    return planListCache.read(JSON.stringify(q), () => adminApi.plans(q)).then(
      (answer) => dispatch({ type: 'loaded', answer }),
      () => {
        dispatch({ type: 'loadFailed' });
        toast.error(PLAN_MESSAGES.loadFailed);
      },
    );
  }, [page, filters, search]);
  useEffect(() => {
    void load();
  }, [load]);

  const reload = async () => {
    planListCache.invalidate();
    planAnalyticsCache.invalidate();
    dispatch({ type: 'changed' });
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

  const exportCsv = async () => {
    try {
      await adminApi.exportPlans({ ...planQueryOf(state), page: undefined, limit: undefined });
      toast.success('Planos exportados', { admin: true });
    } catch (e) {
      toast.error(failureText(e, 'Erro ao exportar planos'));
    }
  };

  const ids = [...selected];
  const bulk = async (updates: Record<string, unknown>) => {
    dispatch({ type: 'busy', busy: true });
    const ok = await run(() => adminApi.bulkUpdatePlans(ids, updates), 'Erro ao atualizar planos');
    dispatch({ type: 'busy', busy: false });
    if (ok) dispatch({ type: 'selectionCleared' });
  };

  const plans = data?.plans ?? [];
  const reorder = async (from: number, to: number) => {
    const planOrders = reorderedDisplayOrders(plans, from, to);
    if (planOrders.length === 0) return;
    dispatch({ type: 'plansMoved', plans: movePlan(plans, from, to) });
    if (!(await run(() => adminApi.reorderPlans(planOrders), 'Erro ao reordenar planos'))) await load();
  };

  return (
    <>
      <PageHeader
        title="Gerenciamento de Planos"
        actions={
          <>
            <Button variant="outline-secondary" onClick={() => void reload()} aria-label="Atualizar lista"><Icon name="arrow-repeat" className="me-1" />Atualizar</Button>
            <Button variant={state.showAnalytics ? 'secondary' : 'outline-secondary'} onClick={() => dispatch({ type: 'analyticsToggled' })} aria-pressed={state.showAnalytics}>Desempenho</Button>
            <Button variant="outline-secondary" onClick={() => void exportCsv()}><Icon name="download" className="me-1" />Exportar</Button>
            <Button onClick={() => dispatch({ type: 'dialogOpened', dialog: { kind: 'edit', plan: null } })} data-testid="new-plan"><Icon name="plus-lg" className="me-1" />Novo Plano</Button>
          </>
        }
      />
      {state.showAnalytics && <PlanAnalyticsPanel refreshKey={state.refreshKey} />}
      <PlanQueryBar searchText={state.searchText} filters={filters} showFilters={state.showFilters} dispatch={dispatch} />
      <PlansBulkBar count={selected.size} busy={busy} onBulk={(updates) => void bulk(updates)} dispatch={dispatch} />

      {state.loadFailed && !data ? (
        <Card body className="text-center">
          <p className="text-danger">{PLAN_MESSAGES.loadFailed}</p>
          <Button onClick={() => void load()}>Tentar Novamente</Button>
        </Card>
      ) : !data ? (
        <SkeletonRows testId="plans-loading" />
      ) : (
        <>
          <PlansTable
            plans={plans}
            selected={selected}
            canReorder={canReorder(filters)}
            busy={busy}
            dispatch={dispatch}
            actions={{
              reorder: (from, to) => void reorder(from, to),
              toggleActive: (p) => void run(() => adminApi.togglePlan(p.id), 'Erro ao alterar status do plano'),
              togglePopular: (p) => void run(() => adminApi.setPopular(p.id, !p.isPopular), 'Erro ao alterar popular'),
              duplicate: (p) => void run(() => adminApi.duplicatePlan(p.id, `${p.name} ${PLAN_MESSAGES.copySuffix}`), 'Erro ao duplicar plano'),
            }}
          />
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
            <span className="small text-body-secondary">{countOf(data.pagination.total, 'plano', 'planos')}</span>
            <PageList page={data.pagination.page} totalPages={data.pagination.pages} onChange={(p) => dispatch({ type: 'pageChosen', page: p })} max={5} />
          </div>
        </>
      )}

      <PlanComparisonModal show={dialog.kind === 'compare'} planIds={ids} currencies={state.currencies} onHide={() => dispatch({ type: 'dialogClosed' })} />
      <PlanFormModal show={dialog.kind === 'edit'} plan={dialog.kind === 'edit' ? dialog.plan : null} onHide={() => dispatch({ type: 'dialogClosed' })} onSaved={() => void reload()} />
      <CustomUpdateModal
        show={dialog.kind === 'customUpdate'}
        count={selected.size}
        onHide={() => dispatch({ type: 'dialogClosed' })}
        onApply={async (u) => {
          await bulk(u);
          dispatch({ type: 'dialogClosed' });
        }}
      />
      <ConfirmModal
        show={dialog.kind === 'delete'}
        title="Excluir plano"
        confirmLabel="Excluir"
        busy={busy}
        onHide={() => dispatch({ type: 'dialogClosed' })}
        onConfirm={() => {
          if (dialog.kind !== 'delete') return;
          const p = dialog.plan;
          dispatch({ type: 'busy', busy: true });
          void run(() => adminApi.deletePlan(p.id), 'Erro ao deletar plano').finally(() => {
            dispatch({ type: 'busy', busy: false });
            dispatch({ type: 'dialogClosed' });
          });
        }}
      >
        Excluir o plano <strong>{dialog.kind === 'delete' ? dialog.plan.name : undefined}</strong>? Um plano com vendas é desativado em vez de excluído.
      </ConfirmModal>
      <ConfirmModal
        show={dialog.kind === 'bulkDelete'}
        title="Excluir planos"
        confirmLabel="Excluir"
        busy={busy}
        onHide={() => dispatch({ type: 'dialogClosed' })}
        onConfirm={() => {
          dispatch({ type: 'busy', busy: true });
          void run(() => adminApi.bulkDeletePlans(ids), 'Erro ao deletar planos').then((ok) => {
            dispatch({ type: 'busy', busy: false });
            dispatch({ type: 'dialogClosed' });
            if (ok) dispatch({ type: 'selectionCleared' });
          });
        }}
      >
        Excluir {countOf(selected.size, 'plano selecionado', 'planos selecionados')}? Planos com vendas são desativados.
      </ConfirmModal>
    </>
  );
}
