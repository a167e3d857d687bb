/**
 * 'Comparar desempenho' of the admin plan list (docs/admin.md): the selected
 * plans side by side for one of the four analytics periods — all-time and period sales and
 * revenue, pending purchases and average ticket, with the period revenue drawn as a bar
 * relative to the best plan so the leader shows at a glance.
 */
import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Modal from 'react-bootstrap/Modal';
import { NamedProgressBar } from '../../components/ProgressMeter';
import Table from 'react-bootstrap/Table';
import { ANALYTICS_PERIODS, ANALYTICS_PERIOD_LABELS, PLAN_TYPE_LABELS, formatMoney, type AnalyticsPeriod, type Currency, type PlanPerformanceEntry } from '@aabify/shared';
import { adminApi } from '../../api/admin';
import { Loading } from '../../components/Loading';
import { useKeyedState } from '../../lib/useKeyedState';
import { failureText } from '../common';

/** `currencies` maps each plan id to its currency (the performance answer carries none). */
export function PlanComparisonModal({ planIds, currencies, show, onHide }: { planIds: string[]; currencies: Record<string, Currency>; show: boolean; onHide(): void }) {
  const [period, setPeriod] = useState<AnalyticsPeriod>('month');
  const key = planIds.join(',');
  // Empty again for every opening, selection and period.
  const fetchKey = `${show}|${key}|${period}`;
  const [rows, setRows] = useKeyedState<PlanPerformanceEntry[] | null>(fetchKey, null);
  const [error, setError] = useKeyedState<string | null>(fetchKey, null);
  useEffect(() => {
    if (!show) return;
    let live = true;
    adminApi
      .planPerformance(key.split(','), period)
      .then((r) => live && setRows(r.performance))
      .catch((e: unknown) => live && setError(failureText(e, 'Erro ao carregar desempenho')));
    return () => {
      live = false;
    };
  }, [show, key, period, setRows, setError]);
  const best = Math.max(1, ...(rows ?? []).map((r) => r.periodRevenueCents));

  return (
    <Modal show={show} onHide={onHide} size="xl" centered>
      <Modal.Header closeButton>
        <Modal.Title>Comparar desempenho</Modal.Title>
      </Modal.Header>
      <Modal.Body data-testid="plan-comparison">
        <ButtonGroup className="mb-3 flex-wrap" aria-label="Período">
          {ANALYTICS_PERIODS.map((p) => (
            <Button key={p} variant={p === period ? 'primary' : 'outline-primary'} aria-pressed={p === period} onClick={() => setPeriod(p)}>
              {ANALYTICS_PERIOD_LABELS[p]}
            </Button>
          ))}
        </ButtonGroup>
        {error && <div className="text-danger">{error}</div>}
        {!rows && !error && <Loading />}
        {rows && (
          <Table responsive size="sm" className="align-middle mb-0">
            <thead>
              <tr>
                <th>Plano</th>
                <th className="text-end">Preço</th>
                <th className="text-end">Vendas no período</th>
                <th style={{ minWidth: 180 }}>Receita no período</th>
                <th className="text-end">Vendas (total)</th>
                <th className="text-end">Receita (total)</th>
                <th className="text-end">Pendentes</th>
                <th className="text-end">Ticket médio</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const currency = currencies[r.planId];
                return (
                <tr key={r.planId} data-testid={`comparison-row-${r.name}`}>
                  <td>
                    <div className="fw-semibold">{r.name}</div>
                    <Badge bg={r.type === 'credit' ? 'info' : 'primary'}>{PLAN_TYPE_LABELS[r.type]}</Badge>{' '}
                    {!r.isActive && <Badge bg="secondary">Inativo</Badge>}
                  </td>
                  <td className="text-end">{formatMoney(Math.round(r.price * 100), currency)}</td>
                  <td className="text-end" data-testid="comparison-period-sales">{r.periodSales}</td>
                  <td>
                    <div data-testid="comparison-period-revenue">{formatMoney(r.periodRevenueCents, currency)}</div>
                    <NamedProgressBar now={(r.periodRevenueCents / best) * 100} style={{ height: 6 }} label={`Receita no período de ${r.name}`} />
                  </td>
                  <td className="text-end" data-testid="comparison-sales">{r.sales}</td>
                  <td className="text-end" data-testid="comparison-revenue">{formatMoney(r.revenueCents, currency)}</td>
                  <td className="text-end">{r.pendingPurchases}</td>
                  <td className="text-end">{formatMoney(Math.round(r.averageTicket * 100), currency)}</td>
                </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </Modal.Body>
    </Modal>
  );
}
