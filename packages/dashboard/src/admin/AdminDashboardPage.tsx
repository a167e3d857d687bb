import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { ADMIN_LIMITS, formatMoney, formatUptime, type AdminDashboardStats } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { Loading } from '../components/Loading';
import { HISTORY_STATUS_LABELS, STATUS_VARIANTS } from '../lib/conversion';
import { formatBytes, formatDateTime } from '../lib/format';
import { ConversionsPerDayChart, RevenueChart, withOther } from './charts';
import { StatCard, failureText } from './common';
import { QueueCard, SystemCard } from './QueueSystem';

/** Spec §2.4: figures, 5 recent conversions, refresh every 30 s, queue and system, and charts. */
export default function AdminDashboardPage() {
  const [stats, setStats] = useState<AdminDashboardStats | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setStats(await adminApi.dashboard());
      setError(null);
    } catch (e) {
      setError(failureText(e, 'Erro ao carregar estatísticas'));
    }
  }, []);

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
      <Loading />
    );
  }
  const s = stats;
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">Painel Administrativo</h1>
        <div className="small text-body-secondary">
          Atualizado em {formatDateTime(s.generatedAt)} · atualiza a cada 30 s{' '}
          <Button size="sm" variant="outline-secondary" onClick={() => void load()} aria-label="Atualizar agora">
            Atualizar
          </Button>
        </div>
      </div>
      <h2 className="h6 text-body-secondary">Usuários</h2>
      <Row xs={2} md={4} className="g-3 mb-3">
        <Col><StatCard label="Total de usuários" value={s.users.total} testId="stat-users-total" /></Col>
        <Col><StatCard label="Ativos" value={s.users.active} variant="success" testId="stat-users-active" /></Col>
        <Col><StatCard label="Inativos" value={s.users.inactive} variant="secondary" testId="stat-users-inactive" /></Col>
        <Col><StatCard label="Administradores" value={s.users.admins} testId="stat-users-admins" /></Col>
      </Row>
      <h2 className="h6 text-body-secondary">Conversões</h2>
      <Row xs={2} md={5} className="g-3 mb-3">
        <Col><StatCard label="Total" value={s.conversions.total} testId="stat-conversions-total" /></Col>
        <Col><StatCard label="Concluídas" value={s.conversions.completed} variant="success" testId="stat-conversions-completed" /></Col>
        <Col><StatCard label="Falharam" value={s.conversions.failed} variant="danger" testId="stat-conversions-failed" /></Col>
        <Col><StatCard label="Pendentes" value={s.conversions.pending} variant="warning" testId="stat-conversions-pending" /></Col>
        <Col><StatCard label="Este mês" value={s.conversions.monthly} testId="stat-conversions-monthly" /></Col>
      </Row>
      <h2 className="h6 text-body-secondary">Receita e compras</h2>
      <Row xs={1} sm={2} md={4} className="g-3 mb-3">
        <Col><StatCard label="Receita total" value={formatMoney(s.revenue.totalCents)} testId="stat-revenue-total" /></Col>
        <Col><StatCard label="Receita do mês" value={formatMoney(s.revenue.monthlyCents)} testId="stat-revenue-monthly" /></Col>
        <Col><StatCard label="Compras" value={s.purchases.total} hint={`${s.purchases.approved} aprovadas · ${s.purchases.pending} pendentes`} testId="stat-purchases" /></Col>
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
      <Card>
        <Card.Header as="h2" className="h6 mb-0">Conversões recentes</Card.Header>
        <Table responsive hover className="mb-0 align-middle" data-testid="recent-conversions">
          <thead>
            <tr>
              <th>Arquivo</th>
              <th>Usuário</th>
              <th>Status</th>
              <th>Data</th>
            </tr>
          </thead>
          <tbody>
            {s.recentConversions.length === 0 && (
              <tr>
                <td colSpan={4} className="text-center text-body-secondary">Nenhuma conversão ainda.</td>
              </tr>
            )}
            {s.recentConversions.map((c) => (
              <tr key={c.id}>
                <td className="text-break">{c.fileName}</td>
                <td className="text-break">{c.user?.email ?? '—'}</td>
                <td>
                  <Badge bg={STATUS_VARIANTS[c.status]}>{HISTORY_STATUS_LABELS[c.status]}</Badge>
                </td>
                <td>{formatDateTime(c.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>
    </>
  );
}

