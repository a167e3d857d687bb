import { useEffect, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { conversionApi } from '../api/conversions';
import { PlanCard } from '../components/PlanCard';
import { planTileLabel } from '../lib/planStatus';
import { usePlanAccess, useUsagePolling } from '../stores/planAccess';
import { isAdmin, useSession } from '../stores/session';

interface Counters {
  total: number;
  completed: number;
  pending: number;
  failed: number;
}

/** Counts from the history: one small page per status. */
async function loadCounters(): Promise<Counters> {
  const count = async (status?: 'completed' | 'failed' | 'cancelled') => (await conversionApi.history({ page: 1, limit: 1, status })).total ?? 0;
  const [total, completed, failed, cancelled] = await Promise.all([count(), count('completed'), count('failed'), count('cancelled')]);
  return { total, completed, failed, pending: Math.max(0, total - completed - failed - cancelled) };
}

function Stat({ label, value, tone, testId }: { label: string; value: number | string; tone?: string; testId: string }) {
  return (
    <Card className="h-100">
      <Card.Body>
        <div className="text-body-secondary small">{label}</div>
        <div className={`stat-value ${tone ? `text-${tone}` : ''}`} data-testid={testId}>
          {value}
        </div>
      </Card.Body>
    </Card>
  );
}

export default function DashboardPage() {
  const user = useSession((s) => s.user);
  const access = usePlanAccess();
  const [counters, setCounters] = useState<Counters | null>(null);
  useUsagePolling();
  useEffect(() => {
    let live = true;
    loadCounters()
      .then((c) => live && setCounters(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!user) return null;
  const admin = isAdmin(user);
  const active = access === 'active';
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-3 mb-4">
        <div>
          <h1 className="h3 mb-1">Bem-vindo, {user.email}!</h1>
          <p className="text-body-secondary mb-0">
            {admin ? 'Você está no painel como administrador: gerencie o serviço e converta sem limites.' : 'Converta seus APKs em Android App Bundles prontos para o Google Play.'}
          </p>
        </div>
        <Link to="/converter" className="btn btn-primary">
          Nova Conversão
        </Link>
      </div>
      <Row className="g-3 mb-3">
        <Col md={8}>
          <PlanCard user={user} />
        </Col>
        <Col md={4}>
          <Card className="h-100" data-testid="plan-status-tile">
            <Card.Body>
              <div className="text-body-secondary small">Status do plano</div>
              <div className={`stat-value ${active ? 'text-success' : 'text-danger'}`}>{access === 'loading' ? '…' : planTileLabel(access)}</div>
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <h2 className="h5 mt-4">Suas conversões</h2>
      <Row className="g-3" xs={2} md={4}>
        <Col>
          <Stat label="Total de Conversões" value={counters?.total ?? '—'} testId="count-total" />
        </Col>
        <Col>
          <Stat label="Concluídas" value={counters?.completed ?? '—'} tone="success" testId="count-completed" />
        </Col>
        <Col>
          <Stat label="Pendentes" value={counters?.pending ?? '—'} tone="warning-emphasis" testId="count-pending" />
        </Col>
        <Col>
          <Stat label="Falharam" value={counters?.failed ?? '—'} tone="danger" testId="count-failed" />
        </Col>
      </Row>
      <p className="mt-4">
        <Link to="/history">Ver histórico de conversões</Link>
      </p>
    </>
  );
}
