import { useCallback, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { countOf, formatBytes, formatNumber, formatPercent, formatUptime, type AdminQueueStats, type AdminSystemStats } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { Icon } from '../components/Icon';
import { Loading } from '../components/Loading';
import { ProgressMeter } from '../components/ProgressMeter';
import { formatDuration } from '../lib/format';
import { toast } from '../stores/toasts';
import { ConfirmModal, StatCard, failureText } from './common';

/** What this process does, as the operator's deployment says it (ROLE=all, web or worker). */
const PROCESS_ROLE_LABELS: Record<string, string> = {
  all: 'site e conversões no mesmo processo',
  web: 'só o site (conversões em outro processo)',
  worker: 'só conversões',
};
import { usePageTitle } from '../components/PageHeader';

/** The queue view of Fila e Sistema (docs/admin.md): waiting, active, completed, failed, and clearing the queue. */
export function QueueCard({ queue, onCleared }: { queue: AdminQueueStats; onCleared(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const clear = async () => {
    setBusy(true);
    try {
      const r = await adminApi.clearQueue();
      toast.success(r.message, { admin: true });
      onCleared();
    } catch (e) {
      toast.error(failureText(e, 'Erro ao limpar a fila'));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <Card className="h-100" data-testid="queue-card">
      <Card.Header className="d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">Fila de conversões</h2>
        <Button size="sm" variant="outline-danger" onClick={() => setConfirming(true)} disabled={queue.waiting === 0} title={queue.waiting === 0 ? 'A fila está vazia' : undefined} data-testid="queue-clear">
          <Icon name="trash" className="me-1" />
          Limpar fila
        </Button>
      </Card.Header>
      <Card.Body>
        <Row xs={2} className="g-2">
          <Col><StatCard label="Na fila" value={queue.waiting} testId="queue-waiting" /></Col>
          <Col><StatCard label="Processando" value={`${queue.active}/${queue.maxConcurrent}`} testId="queue-active" /></Col>
          <Col><StatCard label="Concluídas" value={queue.completed} variant="success" testId="queue-completed" /></Col>
          <Col><StatCard label="Falhadas" value={queue.failed} variant="danger" testId="queue-failed" /></Col>
        </Row>
        <div className="small text-body-secondary mt-2" data-testid="queue-average">
          {queue.completed > 0 ? `Tempo médio de processamento: ${formatDuration(queue.averageProcessingTime)}` : 'Tempo médio de processamento: sem conversões concluídas ainda'}
        </div>
      </Card.Body>
      <ConfirmModal show={confirming} title="Limpar fila" confirmLabel="Limpar fila" busy={busy} onConfirm={() => void clear()} onHide={() => setConfirming(false)}>
        {queue.waiting === 1 ? 'A conversão que aguarda na fila será cancelada' : `As ${formatNumber(queue.waiting)} conversões que aguardam na fila serão canceladas`} , e os créditos reservados, devolvidos aos clientes. As que já estão em processamento continuam.
      </ConfirmModal>
    </Card>
  );
}

/** The system view of Fila e Sistema: uptime, memory used/total, cpu. */
export function SystemCard({ system }: { system: AdminSystemStats }) {
  const memPct = system.memory.total ? Math.round((system.memory.used / system.memory.total) * 100) : 0;
  return (
    <Card className="h-100" data-testid="system-card">
      <Card.Header as="h2" className="h6 mb-0">Sistema</Card.Header>
      <Card.Body>
        <dl className="row mb-0 small">
          <dt className="col-5">Tempo no ar</dt>
          <dd className="col-7" data-testid="system-uptime">{formatUptime(system.uptime)} <span className="text-body-secondary">({formatNumber(system.uptime)} s)</span></dd>
          <dt className="col-5">Memória</dt>
          <dd className="col-7">
            {formatBytes(system.memory.used)} de {formatBytes(system.memory.total)}
            <div className="mt-1"><ProgressMeter now={memPct} label="Uso de memória" /></div>
          </dd>
          <dt className="col-5">CPU</dt>
          <dd className="col-7">
            <span data-testid="system-cpu">
              {formatPercent(system.cpu.usage)} ({countOf(system.cpu.cores, 'núcleo', 'núcleos')}; carga {system.cpu.loadAverage.map((l) => formatNumber(l, { decimals: 2, fixed: true })).join(' / ')})
            </span>
          </dd>
          <dt className="col-5">Processo</dt>
          <dd className="col-7">{formatBytes(system.memory.process.rss)} (heap {formatBytes(system.memory.process.heapUsed)})</dd>
          <dt className="col-5">Versão</dt>
          <dd className="col-7" data-testid="system-version">aabify {system.version} · Node.js {system.nodeVersion.replace(/^v/, '')} · {PROCESS_ROLE_LABELS[system.role] ?? system.role}</dd>
        </dl>
      </Card.Body>
    </Card>
  );
}

/** /admin/system: queue and system, refreshed every 10 s. */
export default function QueueSystemPage() {
  usePageTitle('Fila e Sistema');
  const [queue, setQueue] = useState<AdminQueueStats | null>(null);
  const [system, setSystem] = useState<AdminSystemStats | null>(null);
  const load = useCallback(
    () =>
      Promise.all([adminApi.queue(), adminApi.system()]).then(
        ([q, s]) => {
          setQueue(q);
          setSystem(s);
        },
        (e: unknown) => toast.error(failureText(e, 'Erro ao carregar a fila')),
      ),
    [],
  );
  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), 10000);
    return () => clearInterval(t);
  }, [load]);
  if (!queue || !system) return <Loading />;
  return (
    <>
      <h1 className="h3 mb-3">Fila e Sistema</h1>
      <Row className="g-3">
        <Col lg={6}><QueueCard queue={queue} onCleared={() => void load()} /></Col>
        <Col lg={6}><SystemCard system={system} /></Col>
      </Row>
    </>
  );
}
