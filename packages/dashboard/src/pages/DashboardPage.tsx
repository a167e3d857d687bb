import { useEffect, useState, type ReactNode } from 'react';
import Placeholder from 'react-bootstrap/Placeholder';
import { formatNumber } from '@aabify/shared';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { conversionApi } from '../api/conversions';
import { PlanCard } from '../components/PlanCard';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { planTileLabel } from '../lib/planStatus';
import { greeting } from '../lib/userName';
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

function Stat({ label, value, tone, testId }: { label: string; value: ReactNode; tone?: string; testId: string }) {
  return (
    <Card className="h-100">
      <Card.Body>
        <div className="text-body-secondary small">{label}</div>
        <div className={`stat-value ${tone ? `text-${tone.replace(/-emphasis$/, '')}-emphasis` : ''}`} data-testid={testId}>
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
      <PageHeader
        title={greeting(user)}
        titleTestId="greeting"
        userText
        subtitle={admin ? 'Você está no painel como administrador: gerencie o serviço e converta sem limites.' : 'Converta seus APKs em Android App Bundles prontos para o Google Play.'}
        actions={
          <Link to="/converter" state={{ fresh: true }} className="btn btn-primary">
            <Icon name="plus-lg" className="me-1" />
            Nova Conversão
          </Link>
        }
      />
      <Row className="g-3 mb-3">
        <Col md={8}>
          <PlanCard user={user} />
        </Col>
        <Col md={4}>
          <Card className="h-100" data-testid="plan-status-tile">
            <Card.Body>
              <div className="text-body-secondary small">Status do plano</div>
              <div className={`stat-value ${active ? 'text-success-emphasis' : 'text-danger-emphasis'}`}>{access === 'loading' ? '…' : planTileLabel(access)}</div>
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <h2 className="h5 mt-4">Suas conversões</h2>
      <Row className="g-3" xs={2} md={4}>
        <Col>
          <Stat label="Total de Conversões" value={counters ? formatNumber(counters.total) : <Placeholder xs={4} aria-hidden="true" />} testId="count-total" />
        </Col>
        <Col>
          <Stat label="Concluídas" value={counters ? formatNumber(counters.completed) : <Placeholder xs={4} aria-hidden="true" />} tone="success" testId="count-completed" />
        </Col>
        <Col>
          <Stat label="Pendentes" value={counters ? formatNumber(counters.pending) : <Placeholder xs={4} aria-hidden="true" />} tone="warning-emphasis" testId="count-pending" />
        </Col>
        <Col>
          <Stat label="Falharam" value={counters ? formatNumber(counters.failed) : <Placeholder xs={4} aria-hidden="true" />} tone="danger" testId="count-failed" />
        </Col>
      </Row>
      <p className="mt-4">
        <Link to="/history">Ver histórico de conversões</Link>
      </p>
    </>
  );
}
