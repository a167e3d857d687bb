/** The bar of actions over the selected plans (shown while any is selected). */
import type { Dispatch } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { countOf } from '@aabify/shared';
import type { PlansAdminAction } from './plansAdminState';

export function PlansBulkBar({ count, busy, onBulk, dispatch }: { count: number; busy: boolean; onBulk(updates: Record<string, unknown>): void; dispatch: Dispatch<PlansAdminAction> }) {
  if (count === 0) return null;
  return (
    <Card className="mb-3 border-primary" data-testid="bulk-bar">
      <Card.Body className="d-flex flex-wrap align-items-center gap-2 py-2">
        <strong>{countOf(count, 'plano selecionado', 'planos selecionados')}</strong>
        <Button size="sm" variant="outline-success" disabled={busy} onClick={() => onBulk({ isActive: true })}>Ativar</Button>
        <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => onBulk({ isActive: false })}>Desativar</Button>
        <Button size="sm" variant="outline-warning" disabled={busy} onClick={() => onBulk({ isPopular: true })}>Marcar popular</Button>
        <Button size="sm" variant="outline-primary" disabled={busy} onClick={() => dispatch({ type: 'dialogOpened', dialog: { kind: 'customUpdate' } })}>Atualização personalizada</Button>
        <Button size="sm" variant="outline-info" disabled={busy} onClick={() => dispatch({ type: 'dialogOpened', dialog: { kind: 'compare' } })}>Comparar desempenho</Button>
        <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => dispatch({ type: 'dialogOpened', dialog: { kind: 'bulkDelete' } })}>Excluir</Button>
        <Button size="sm" variant="link" onClick={() => dispatch({ type: 'selectionCleared' })}>Limpar seleção</Button>
      </Card.Body>
    </Card>
  );
}
