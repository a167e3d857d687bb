import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router-dom';
import type { SessionJson } from '@aabify/shared';
import { securityApi } from '../../api/security';
import { isApiRequestError } from '../../api/client';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataList, type Column } from '../../components/DataList';
import { formatDateTime } from '../../lib/format';
import { SECURITY_PAGE_TEXTS, sessionLastUse, sessionsInOrder } from '../../lib/security';
import { signOutEverywhere } from '../../stores/signOut';
import { toast } from '../../stores/toasts';

const COLUMNS: ReadonlyArray<Column<SessionJson>> = [
  {
    key: 'device',
    header: 'Dispositivo',
    primary: true,
    render: (s) => (
      <span title={s.userAgent ?? undefined} data-testid="session-device">
        {s.device}
        {s.current && (
          <Badge bg="success" className="ms-2">
            {SECURITY_PAGE_TEXTS.thisSession}
          </Badge>
        )}
      </span>
    ),
  },
  { key: 'address', header: 'Endereço', className: 'text-nowrap', render: (s) => s.address ?? '—' },
  { key: 'createdAt', header: 'Entrou em', className: 'text-nowrap', render: (s) => formatDateTime(s.createdAt) },
  { key: 'lastUsedAt', header: 'Último uso', className: 'text-nowrap', render: sessionLastUse },
];

/** "Sessões ativas": every signed-in browser and CLI sign-in, each with "Encerrar". */
export function SessionsSection() {
  const [sessions, setSessions] = useState<SessionJson[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [ending, setEnding] = useState<SessionJson | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  // State is set when the answer arrives, never in the effect itself.
  const fetchSessions = () => securityApi.sessions().then((list) => setSessions(sessionsInOrder(list)), () => setFailed(true));
  useEffect(() => void fetchSessions(), []);
  const retry = () => {
    setFailed(false);
    void fetchSessions();
  };

  const end = async (session: SessionJson) => {
    setBusy(true);
    try {
      await securityApi.endSession(session.id);
      toast.success(SECURITY_PAGE_TEXTS.ended);
    } catch (e) {
      // 404: already over (ended elsewhere): the list drops it all the same.
      if (!(isApiRequestError(e) && e.status === 404)) {
        toast.error(isApiRequestError(e) && e.serverMessage ? e.serverMessage : 'Erro ao encerrar a sessão');
        setBusy(false);
        return;
      }
    }
    setBusy(false);
    setEnding(null);
    if (session.current) {
      signOutEverywhere();
      navigate('/login', { replace: true });
      return;
    }
    setSessions((list) => (list ?? []).filter((s) => s.id !== session.id));
  };

  return (
    <section aria-labelledby="sessions-title" data-testid="sessions-section">
      <h2 id="sessions-title" className="h6">
        {SECURITY_PAGE_TEXTS.sessionsTitle}
      </h2>
      <p className="small text-body-secondary">{SECURITY_PAGE_TEXTS.sessionsIntro}</p>
      {failed ? (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
          {SECURITY_PAGE_TEXTS.loadError}
          <Button size="sm" variant="outline-danger" onClick={retry}>
            Tentar Novamente
          </Button>
        </Alert>
      ) : (
        <DataList
          items={sessions}
          columns={COLUMNS}
          rowKey={(s) => s.id}
          testId="sessions"
          rowTestId="session-row"
          caption={SECURITY_PAGE_TEXTS.sessionsTitle}
          empty={SECURITY_PAGE_TEXTS.sessionsEmpty}
          actions={(s) => (
            <Button variant="outline-danger" size="sm" onClick={() => setEnding(s)} aria-label={`Encerrar a sessão ${s.device}`} data-testid="session-end">
              Encerrar
            </Button>
          )}
        />
      )}
      <ConfirmModal
        show={ending !== null}
        title={SECURITY_PAGE_TEXTS.endTitle}
        confirmLabel="Encerrar"
        busy={busy}
        onConfirm={() => ending && void end(ending)}
        onHide={() => setEnding(null)}
      >
        {ending && (
          <p className="text-break">
            <strong>{ending.device}</strong> — {ending.address ?? '—'}
          </p>
        )}
        <p className="mb-0">{ending?.current ? SECURITY_PAGE_TEXTS.endCurrentBody : SECURITY_PAGE_TEXTS.endBody}</p>
      </ConfirmModal>
    </section>
  );
}
