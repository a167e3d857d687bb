import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Icon, type IconName } from '../../components/Icon';
import { ProgressMeter } from '../../components/ProgressMeter';
import { formatBytes, isActiveConversionStatus } from '@aabify/shared';
import { statusLabel, type ConversionView } from '../../lib/conversion';
import { useKeyedState } from '../../lib/useKeyedState';
import { shortId } from '../../lib/format';
import type { LiveStatus } from '../../stores/conversions';

export const UPDATED_FLASH_MS = 2000;
export const CONNECTION_LOST_TEXT = 'Conexão perdida: Tentando reconectar...';

const ICONS: Record<string, { name: IconName; tone: string }> = {
  queued: { name: 'hourglass-split', tone: 'info' },
  processing: { name: 'gear-fill', tone: 'primary' },
  completed: { name: 'check-circle-fill', tone: 'success' },
  failed: { name: 'x-circle-fill', tone: 'danger' },
};
const UNKNOWN_ICON = { name: 'question-circle', tone: 'secondary' } as const;

/** Title and icon per status, file, id, progress, and the live connection indicator. */
export function StatusCard({ conversion, live, lastUpdateAt }: { conversion: ConversionView; live: LiveStatus; lastUpdateAt: number | null }) {
  // Each live update lights the indicator for a moment.
  const [flashEnded, setFlashEnded] = useKeyedState(String(lastUpdateAt), false);
  const flash = Boolean(lastUpdateAt) && !flashEnded;
  useEffect(() => {
    if (!lastUpdateAt) return;
    const t = setTimeout(() => setFlashEnded(true), UPDATED_FLASH_MS);
    return () => clearTimeout(t);
  }, [lastUpdateAt, setFlashEnded]);
  const active = isActiveConversionStatus(conversion.status);
  const title = statusLabel(conversion.status);
  return (
    <Card className="mb-3" data-testid="status-card" data-status={conversion.status}>
      <Card.Body>
        {active && live.lost && !live.connected && (
          <Alert variant="warning" className="py-2" data-testid="connection-lost">
            {CONNECTION_LOST_TEXT}
          </Alert>
        )}
        <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
          <div className="min-w-0">
            <h2 className="h5 mb-1" data-testid="status-title">
              <Icon name={(ICONS[conversion.status] ?? UNKNOWN_ICON).name} className={`me-2 text-${(ICONS[conversion.status] ?? UNKNOWN_ICON).tone}-emphasis`} />
              {title}
            </h2>
            <div className="text-break-word" data-testid="status-file">
              {conversion.fileName}
            </div>
            <small className="text-body-secondary">
              ID: <span className="text-truncate-id">{shortId(conversion.id)}</span>
            </small>
          </div>
          {active && (
            <div className="d-flex align-items-center gap-2" aria-live="polite">
              <Badge bg={live.connected ? 'success' : 'danger'} data-testid="connection-indicator" data-connected={live.connected}>
                {live.connected ? `Conectado${live.transport === 'sse' ? ' (SSE)' : ''}` : 'Desconectado'}
              </Badge>
              {flash && (
                <Badge bg="info" text="dark" className="updated-flash" data-testid="updated-flash">
                  Atualizado
                </Badge>
              )}
            </div>
          )}
        </div>
        <div className="my-3">
          <ProgressMeter now={conversion.progress} status={conversion.status} animated={active} label="Progresso da conversão" testId="status-progress" />
        </div>
        <Row className="g-2 text-center stat-tiles" xs={1} sm={3}>
          <Col>
            <div className="border rounded p-2 h-100">
              <div className="small text-body-secondary">Status</div>
              <div className="fw-semibold">{title}</div>
            </div>
          </Col>
          <Col>
            <div className="border rounded p-2 h-100">
              <div className="small text-body-secondary">Progresso</div>
              <div className="fw-semibold" data-testid="status-percent">
                {conversion.progress}%
              </div>
            </div>
          </Col>
          <Col>
            <div className="border rounded p-2 h-100">
              <div className="small text-body-secondary">Tamanho</div>
              <div className="fw-semibold">{formatBytes(conversion.fileSize)}</div>
            </div>
          </Col>
        </Row>
      </Card.Body>
    </Card>
  );
}
