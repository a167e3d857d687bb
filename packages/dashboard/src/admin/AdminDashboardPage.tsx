import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { ADMIN_LIMITS, countOf, formatBytes, formatMoney, formatNumber, formatUptime, type AdminConversion, type AdminDashboardStats } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { DataList } from '../components/DataList';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { SkeletonRows } from '../components/Skeleton';
import { Truncate } from '../components/Truncate';
import { HISTORY_STATUS_LABELS, STATUS_VARIANTS } from '../lib/conversion';
import { formatDateTime } from '../lib/format';
import { ConversionsPerDayChart, RevenueChart, withOther } from './charts';
import { StatCard, failureText } from './common';
import { QueueCard, SystemCard } from './QueueSystem';
import { OperatorWarnings } from './OperatorWarnings';

/** The admin dashboard (docs/admin.md): figures, 5 recent conversions, refresh every 30 s, queue and system, and charts. */
export default function AdminDashboardPage() {
  const [stats, setStats] = useState<AdminDashboardStats | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      adminApi.dashboard().then(
        (answer) => {
          setStats(answer);
          setError(null);
        },
        (e: unknown) => setError(failureText(e, 'Erro ao carregar estatísticas')),
      ),
    [],
  );

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), ADMIN_LIMITS.dashboardRefreshMs);
    return () => clearInterval(t);
  }, [load]);

  if (!stats) {
    return error ? (
      <Card body className="text-danger">
        {error}{' '}
        <Button size="sm" variant="outline-danger" onClick={() => void load()}>
          Tentar Novamente
        </Button>
      </Card>
    ) : (
      <SkeletonRows rows={6} testId="admin-dashboard-loading" />
    );
  }
  const s = stats;
  return (
    <>
      <PageHeader
        title="Painel Administrativo"
        subtitle={`Atualizado em ${formatDateTime(s.generatedAt)} · atualiza a cada 30 s`}
        actions={
          <Button size="sm" variant="outline-secondary" onClick={() => void load()} aria-label="Atualizar agora">
            <Icon name="arrow-repeat" className="me-1" />
            Atualizar
          </Button>
        }
      />
      <OperatorWarnings />
      <h2 className="h6 text-body-secondary">Clientes</h2>
      <Row xs={2} md={4} className="g-3 mb-3">
        <Col><StatCard label="Clientes" value={formatNumber(s.users.customers)} hint="Contas de cliente, ativas e inativas" testId="stat-users-total" /></Col>
        <Col><StatCard label="Ativos" value={formatNumber(s.users.customersActive)} variant="success" testId="stat-users-active" /></Col>
        <Col><StatCard label="Inativos" value={formatNumber(s.users.customersInactive)} variant="secondary" testId="stat-users-inactive" /></Col>
        <Col><StatCard label="Administradores" value={formatNumber(s.users.admins)} hint="Fora da contagem de clientes" testId="stat-users-admins" /></Col>
      </Row>
      <h2 className="h6 text-body-secondary">Conversões</h2>
      <Row xs={2} md={5} className="g-3 mb-3">
        <Col><StatCard label="Total" value={formatNumber(s.conversions.total)} testId="stat-conversions-total" /></Col>
        <Col><StatCard label="Concluídas" value={formatNumber(s.conversions.completed)} variant="success" testId="stat-conversions-completed" /></Col>
        <Col><StatCard label="Falharam" value={formatNumber(s.conversions.failed)} variant="danger" testId="stat-conversions-failed" /></Col>
        <Col><StatCard label="Na fila" value={formatNumber(s.conversions.pending)} variant="warning" testId="stat-conversions-pending" /></Col>
        <Col><StatCard label="Este mês" value={formatNumber(s.conversions.monthly)} testId="stat-conversions-monthly" /></Col>
      </Row>
      <h2 className="h6 text-body-secondary">Receita e compras</h2>
      <Row xs={1} sm={2} md={4} className="g-3 mb-3">
        <Col><StatCard label="Receita total" value={formatMoney(s.revenue.totalCents)} testId="stat-revenue-total" /></Col>
        <Col><StatCard label="Receita do mês" value={formatMoney(s.revenue.monthlyCents)} testId="stat-revenue-monthly" /></Col>
        <Col><StatCard label="Compras" value={formatNumber(s.purchases.total)} hint={`${countOf(s.purchases.approved, 'aprovada', 'aprovadas')} · ${countOf(s.purchases.pending, 'pendente', 'pendentes')}`} testId="stat-purchases" /></Col>
        <Col>
          <StatCard label="Tempo no ar" value={formatUptime(s.system.uptime)} hint={`Memória ${formatBytes(s.system.memory.used)} de ${formatBytes(s.system.memory.total)}`} testId="stat-uptime" />
        </Col>
      </Row>
      <Row className="g-3 mb-3">
        <Col lg={7}>
          <Card className="h-100">
            <Card.Header as="h2" className="h6 mb-0">Conversões por dia (30 dias)</Card.Header>
            <Card.Body>
              <ConversionsPerDayChart data={withOther(s.charts.conversionsPerDay)} />
            </Card.Body>
          </Card>
        </Col>
        <Col lg={5}>
          <Card className="h-100">
            <Card.Header as="h2" className="h6 mb-0">Receita por mês (12 meses)</Card.Header>
            <Card.Body>
              <RevenueChart data={s.charts.revenuePerMonth} xKey="month" label="Gráfico de receita por mês nos últimos 12 meses" />
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <Row className="g-3 mb-3">
        <Col lg={6}>
          <QueueCard queue={s.queue} onCleared={() => void load()} />
        </Col>
        <Col lg={6}>
          <SystemCard system={s.system} />
        </Col>
      </Row>
      <h2 className="h6">Conversões recentes</h2>
      <DataList<AdminConversion>
        items={s.recentConversions}
        rowKey={(c) => c.id}
        testId="recent-conversions"
        caption="Conversões recentes"
        empty="Nenhuma conversão ainda."
        columns={[
          { key: 'file', header: 'Arquivo', primary: true, render: (c) => <Link to={`/conversions/${c.id}`} className="text-break-word">{c.fileName}</Link> },
          { key: 'user', header: 'Usuário', render: (c) => (c.user?.email ? <Truncate text={c.user.email} max="220px" /> : '—') },
          { key: 'status', header: 'Status', render: (c) => <Badge bg={STATUS_VARIANTS[c.status]} text={c.status === 'queued' ? 'dark' : undefined}>{HISTORY_STATUS_LABELS[c.status]}</Badge> },
          { key: 'date', header: 'Data', className: 'text-nowrap small', render: (c) => formatDateTime(c.createdAt) },
        ]}
      />
    </>
  );
}

