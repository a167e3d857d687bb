/** The analytics panel of 'Gerenciamento de Planos' (docs/admin.md): four periods, figures, top 5, recent sales, chart. */
import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Nav from 'react-bootstrap/Nav';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { ANALYTICS_PERIODS, ANALYTICS_PERIOD_LABELS, PLAN_LIMITS, PLAN_TYPE_LABELS, formatMoney, type AnalyticsPeriod, type PlanAnalytics } from '@aabify/shared';
import { countOf } from '@aabify/shared';
import { adminApi } from '../../api/admin';
import { Loading } from '../../components/Loading';
import { formatDate } from '../../lib/format';
import { createQueryCache } from '../../lib/queryCache';
import { useKeyedState } from '../../lib/useKeyedState';
import { PlanRevenueChart } from '../charts';
import { StatCard, failureText } from '../common';

const SALE_VARIANTS: Record<string, string> = { approved: 'success', pending: 'warning', rejected: 'danger', cancelled: 'secondary', refunded: 'secondary' };

/** Analytics answers per period, fresh for 60 s; the plan screen invalidates it on any change. */
export const planAnalyticsCache = createQueryCache<{ analytics: PlanAnalytics }>(PLAN_LIMITS.analyticsFreshMs);

export function PlanAnalyticsPanel({ refreshKey }: { refreshKey: number }) {
  const [period, setPeriod] = useState<AnalyticsPeriod>('month');
  // Empty again while another period (or a refresh) loads.
  const [data, setData] = useKeyedState<PlanAnalytics | null>(`${period}|${refreshKey}`, null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    planAnalyticsCache
      .read(period, () => adminApi.planAnalytics(period))
      .then((r) => live && (setData(r.analytics), setError(null)))
      .catch((e: unknown) => live && setError(failureText(e, 'Erro ao carregar analytics')));
    return () => {
      live = false;
    };
  }, [period, refreshKey, setData]);

  return (
    <Card className="mb-3" data-testid="plan-analytics">
      <Card.Header>
        <Nav variant="tabs" className="card-header-tabs" activeKey={period} onSelect={(k) => k && setPeriod(k as AnalyticsPeriod)}>
          {ANALYTICS_PERIODS.map((p) => (
            <Nav.Item key={p}>
              <Nav.Link eventKey={p}>{ANALYTICS_PERIOD_LABELS[p]}</Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
      </Card.Header>
      <Card.Body>
        {error && <div className="text-danger">{error}</div>}
        {!data && !error && <Loading />}
        {data && (
          <>
            <Row xs={2} md={4} className="g-3 mb-3">
              <Col><StatCard label="Planos" value={data.summary.totalPlans} hint={`${data.summary.activePlans} ativos`} testId="analytics-plans" /></Col>
              <Col><StatCard label="Receita total" value={formatMoney(data.summary.totalRevenueCents)} testId="analytics-total-revenue" /></Col>
              <Col>
                <StatCard label={`Receita (${ANALYTICS_PERIOD_LABELS[data.period]})`} value={formatMoney(data.summary.periodRevenue.totalCents)} hint={countOf(data.summary.periodRevenue.count, 'venda', 'vendas')} testId="analytics-period-revenue" />
              </Col>
              <Col><StatCard label="Ticket médio" value={formatMoney(data.summary.averageTicketCents)} testId="analytics-average-ticket" /></Col>
            </Row>
            <p className="small text-body-secondary">
              Por tipo: {data.plansByType.subscription} de {PLAN_TYPE_LABELS.subscription.toLowerCase()} · {data.plansByType.credit} de {PLAN_TYPE_LABELS.credit.toLowerCase()}
            </p>
            {data.salesByMethod && (
              <p className="small text-body-secondary" data-testid="analytics-by-method">
                Vendas por forma de pagamento ({ANALYTICS_PERIOD_LABELS[data.period]}):{' '}
                {data.salesByMethod
                  .filter((m) => m.sales > 0 || m.method !== 'other')
                  .map((m) => `${m.label} ${m.sales}`)
                  .join(' · ')}
              </p>
            )}
            <Row className="g-3">
              <Col lg={6}>
                <h3 className="h6">Top 5 planos</h3>
                {data.topPerformingPlans.length === 0 ? (
                  <p className="small text-body-secondary">Nenhuma venda no período.</p>
                ) : (
                  <>
                    <PlanRevenueChart data={data.topPerformingPlans.map((t) => ({ name: t.plan.name, revenue: t.revenue, sales: t.sales }))} />
                    <Table size="sm" className="mt-2" data-testid="analytics-top">
                      <tbody>
                        {data.topPerformingPlans.map((t) => (
                          <tr key={t.plan.id ?? t.plan.name}>
                            <td>{t.plan.name}</td>
                            <td>{countOf(t.sales, 'venda', 'vendas')}</td>
                            <td className="text-end">{formatMoney(t.revenueCents)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </Table>
                  </>
                )}
              </Col>
              <Col lg={6}>
                <h3 className="h6">Vendas recentes</h3>
                <Table size="sm" responsive data-testid="analytics-recent">
                  <tbody>
                    {data.recentSales.length === 0 && <tr><td className="text-body-secondary">Nenhuma venda ainda.</td></tr>}
                    {data.recentSales.map((s) => (
                      <tr key={s.id}>
                        <td>{s.planId.name}</td>
                        <td className="text-break">{s.userId.email}</td>
                        <td>{formatDate(s.createdAt)}</td>
                        <td className="text-end">{formatMoney(s.amountCents)}</td>
                        <td><Badge bg={SALE_VARIANTS[s.status] ?? 'secondary'}>{s.statusLabel}</Badge></td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </Col>
            </Row>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
