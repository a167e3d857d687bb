/**
 * The plans list of the admin screen: selection, display order (drag and drop or arrows, when the
 * list is sorted by it), the active and popular switches, sales, revenue and each plan's actions.
 */
import { useState, type Dispatch, type DragEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PLAN_MESSAGES, PLAN_TYPE_LABELS, countOf, formatMoney, formatNumber, type ApiPlan } from '@aabify/shared';
import { ActionMenu } from '../../components/ActionMenu';
import { DataList } from '../../components/DataList';
import { Icon } from '../../components/Icon';
import { Truncate } from '../../components/Truncate';
import type { PlansAdminAction } from './plansAdminState';

const REORDER_HINT = 'Ordene por "Ordem de exibição" (crescente) para reordenar';

function priceDetail(p: ApiPlan): string {
  if (p.type === 'credit') return countOf(p.credits ?? 0, 'crédito', 'créditos');
  return countOf(p.subscriptionDetails?.duration ?? 1, 'mês', 'meses');
}

export interface PlanRowActions {
  reorder(from: number, to: number): void;
  toggleActive(plan: ApiPlan): void;
  togglePopular(plan: ApiPlan): void;
  duplicate(plan: ApiPlan): void;
}

export function PlansTable({
  plans,
  selected,
  canReorder,
  busy,
  actions,
  dispatch,
}: {
  plans: ApiPlan[];
  selected: ReadonlySet<string>;
  canReorder: boolean;
  busy: boolean;
  actions: PlanRowActions;
  dispatch: Dispatch<PlansAdminAction>;
}) {
  // The row being dragged and the row it would be dropped on.
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const endDrag = () => {
    setDragIndex(null);
    setDropIndex(null);
  };
  const allSelected = plans.length > 0 && plans.every((p) => selected.has(p.id));

  return (
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
          if (dragIndex !== null) actions.reorder(dragIndex, i);
          endDrag();
        },
        onDragEnd: endDrag,
      })}
      lead={{
        header: <Form.Check aria-label="Selecionar todos" checked={allSelected} onChange={() => dispatch({ type: 'pageToggled', ids: plans.map((p) => p.id) })} />,
        render: (p) => <Form.Check aria-label={`Selecionar ${p.name}`} checked={selected.has(p.id)} onChange={() => dispatch({ type: 'planToggled', id: p.id })} />,
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
                <Button size="sm" variant="link" className="p-0 px-1" aria-label={`Mover ${p.name} para cima`} title={canReorder ? undefined : REORDER_HINT} disabled={!canReorder || busy || i === 0} onClick={() => actions.reorder(i, i - 1)}><Icon name="arrow-up" /></Button>
                <Button size="sm" variant="link" className="p-0 px-1" aria-label={`Mover ${p.name} para baixo`} title={canReorder ? undefined : REORDER_HINT} disabled={!canReorder || busy || i === plans.length - 1} onClick={() => actions.reorder(i, i + 1)}><Icon name="arrow-down" /></Button>
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
              {p.description && <Truncate text={p.description} max="220px" className="small text-body-secondary" />}
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
        { key: 'active', header: 'Ativo', render: (p) => <Form.Check type="switch" id={`active-${p.id}`} aria-label={`Ativo: ${p.name}`} checked={p.isActive} onChange={() => actions.toggleActive(p)} /> },
        { key: 'popular', header: 'Popular', render: (p) => <Form.Check type="switch" id={`popular-${p.id}`} aria-label={`Popular: ${p.name}`} checked={p.isPopular} onChange={() => actions.togglePopular(p)} /> },
        { key: 'sales', header: 'Vendas', render: (p) => <span data-testid="plan-sales">{formatNumber(p.salesCount)}</span> },
        { key: 'revenue', header: 'Receita', className: 'text-nowrap', render: (p) => <span data-testid="plan-revenue">{formatMoney(p.totalRevenueCents, p.currency)}</span> },
      ]}
      actions={(p) => (
        <>
          <Button size="sm" variant="outline-primary" onClick={() => dispatch({ type: 'dialogOpened', dialog: { kind: 'edit', plan: p } })}>
            <Icon name="pencil" className="me-1" />
            Editar
          </Button>
          <ActionMenu
            label={`Mais ações para ${p.name}`}
            actions={[
              { label: 'Duplicar', icon: 'copy', onSelect: () => actions.duplicate(p) },
              { label: 'Excluir', icon: 'trash', danger: true, onSelect: () => dispatch({ type: 'dialogOpened', dialog: { kind: 'delete', plan: p } }) },
            ]}
          />
        </>
      )}
    />
  );
}
