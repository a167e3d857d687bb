import { useEffect, useState, type ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import ListGroup from 'react-bootstrap/ListGroup';
import Placeholder from 'react-bootstrap/Placeholder';
import { formatNumber, type ApiConversion } from '@aabify/shared';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { conversionApi } from '../api/conversions';
import { PlanCard } from '../components/PlanCard';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { HISTORY_STATUS_LABELS, STATUS_VARIANTS } from '../lib/conversion';
import { formatDateTime } from '../lib/format';
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

/** How many recent conversions the Painel lists (the rest is in Histórico). */
const RECENT_COUNT = 5;

/** Counts from the history (one small page per status), and its newest page as the recent list. */
async function loadCounters(): Promise<{ counters: Counters; recent: ApiConversion[] }> {
  const count = async (status?: 'completed' | 'failed' | 'cancelled') => (await conversionApi.history({ page: 1, limit: 1, status })).total ?? 0;
  const [newest, completed, failed, cancelled] = await Promise.all([
    conversionApi.history({ page: 1, limit: RECENT_COUNT, sortBy: 'createdAt', sortOrder: 'desc' }),
    count('completed'),
    count('failed'),
    count('cancelled'),
  ]);
  const total = newest.total ?? 0;
  return { counters: { total, completed, failed, pending: Math.max(0, total - completed - failed - cancelled) }, recent: newest.conversions };
}

function RecentConversions({ recent }: { recent: ApiConversion[] | null }) {
  if (recent === null) return <Placeholder as="p" animation="glow" aria-hidden="true"><Placeholder xs={8} /></Placeholder>;
  if (recent.length === 0) {
    return (
      <p className="text-body-secondary" data-testid="recent-empty">
        Nenhuma conversão ainda. <Link to="/converter" state={{ fresh: true }}>Converta seu primeiro APK</Link>.
      </p>
    );
  }
  return (
    <ListGroup className="mb-2" data-testid="recent-conversions">
      {recent.map((c) => (
        <ListGroup.Item key={c.id} action as={Link} to={`/conversions/${encodeURIComponent(c.id)}`} className="d-flex flex-wrap align-items-center gap-2" data-testid="recent-conversion">
          <span className="text-break me-auto">{c.originalFileName || c.fileName}</span>
          <small className="text-body-secondary text-nowrap">{formatDateTime(c.createdAt)}</small>
          <Badge bg={STATUS_VARIANTS[c.status]} text={c.status === 'queued' ? 'dark' : undefined}>
            {HISTORY_STATUS_LABELS[c.status]}
          </Badge>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
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
  const [recent, setRecent] = useState<ApiConversion[] | null>(null);
  const usage = useUsagePolling();
  useEffect(() => {
    let live = true;
    loadCounters()
      .then((c) => {
        if (!live) return;
        setCounters(c.counters);
        setRecent(c.recent);
      })
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
              {usage?.planName && (
                <div className="text-break" data-testid="plan-name">
                  {usage.planName}
                </div>
              )}
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
      <h2 className="h5 mt-4">Conversões recentes</h2>
      <RecentConversions recent={recent} />
      <p>
        <Link to="/history">Ver histórico de conversões</Link>
      </p>
    </>
  );
}
