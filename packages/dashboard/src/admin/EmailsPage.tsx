/**
 * 'E-mails' (/admin/emails): the outbox — every message the service sent or keeps (without
 * SMTP_URL nothing leaves, and this is where admins read them), with status, attempts and the
 * last SMTP error; 'Ver' shows the message as sent, in a sandboxed frame (no scripts, no
 * same-origin), with single-use links hidden; 'Reenviar' puts a failed message back in the queue
 * (one that carried a single-use link cannot be: the link was dropped with the failure). See
 * docs/email.md.
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Nav from 'react-bootstrap/Nav';
import {
  EMAIL_KIND_LABELS,
  EMAIL_STATUSES,
  EMAIL_STATUS_LABELS,
  type AdminEmailDetail,
  type AdminEmailJson,
  type AdminEmailListResponse,
  type EmailStatus,
} from '@aabify/shared';
import { emailApi } from '../api/email';
import { DataList } from '../components/DataList';
import { PageHeader } from '../components/PageHeader';
import { Truncate } from '../components/Truncate';
import { formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';
import { useKeyedState } from '../lib/useKeyedState';
import { PageList, failureText } from './common';

const STATUS_VARIANTS: Record<EmailStatus, string> = { queued: 'secondary', sent: 'success', failed: 'danger' };

function StatusBadge({ email }: { email: AdminEmailJson }) {
  return (
    <Badge bg={STATUS_VARIANTS[email.status]} data-testid="email-status">
      {EMAIL_STATUS_LABELS[email.status]}
    </Badge>
  );
}

/** The message as its recipient sees it: HTML in a frame that runs nothing, or the text part. */
function EmailViewer({ id, onHide }: { id: string | null; onHide(): void }) {
  // Another message starts empty, on its HTML tab.
  const [detail, setDetail] = useKeyedState<AdminEmailDetail | null>(id ?? '', null);
  const [tab, setTab] = useKeyedState<'html' | 'text'>(id ?? '', 'html');
  useEffect(() => {
    if (!id) return;
    let live = true;
    emailApi.adminGet(id).then(
      (d) => live && setDetail(d),
      (e: unknown) => toast.error(failureText(e, 'Não foi possível abrir o e-mail.')),
    );
    return () => {
      live = false;
    };
  }, [id, setDetail]);
  return (
    <Modal show={id !== null} onHide={onHide} size="lg" aria-labelledby="email-viewer-title" data-testid="email-viewer">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="email-viewer-title" as="h2" className="h5 min-w-0">
          <Truncate text={detail?.subject ?? 'E-mail'} />
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {detail && (
          <>
            <dl className="row small mb-3">
              <dt className="col-sm-3">Para</dt>
              <dd className="col-sm-9 text-break">{detail.to}</dd>
              <dt className="col-sm-3">Tipo</dt>
              <dd className="col-sm-9">{EMAIL_KIND_LABELS[detail.kind] ?? detail.kind}</dd>
              <dt className="col-sm-3">Status</dt>
              <dd className="col-sm-9">
                <StatusBadge email={detail} /> {detail.attempts > 0 && <span className="text-body-secondary">({detail.attempts} tentativa(s))</span>}
              </dd>
              {detail.lastError && (
                <>
                  <dt className="col-sm-3">Último erro</dt>
                  <dd className="col-sm-9 text-break">{detail.lastError}</dd>
                </>
              )}
            </dl>
            <Nav variant="tabs" activeKey={tab} onSelect={(k) => setTab(k === 'text' ? 'text' : 'html')} className="mb-2">
              <Nav.Item>
                <Nav.Link eventKey="html">HTML</Nav.Link>
              </Nav.Item>
              <Nav.Item>
                <Nav.Link eventKey="text">Texto</Nav.Link>
              </Nav.Item>
            </Nav>
            {tab === 'html' ? (
              // sandbox="" : no scripts, no forms, no same-origin access, no top navigation.
              <iframe title="Conteúdo do e-mail" sandbox="" srcDoc={detail.html} className="w-100 border rounded bg-white" style={{ height: 480 }} data-testid="email-html" />
            ) : (
              <pre className="border rounded p-3 small mb-0 text-wrap" data-testid="email-text">
                {detail.text}
              </pre>
            )}
            <p className="small text-body-secondary mt-2 mb-0">Links de uso único (nova senha, confirmação de e-mail) ficam ocultos aqui: só o destinatário os recebe.</p>
          </>
        )}
      </Modal.Body>
    </Modal>
  );
}

export default function EmailsPage() {
  const [status, setStatus] = useState<EmailStatus | ''>('');
  const [search, setSearch] = useState('');
  const [data, setData] = useState<AdminEmailListResponse | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);

  const [page, setPage] = useKeyedState(JSON.stringify([status, search]), 1);
  const load = useCallback(
    () =>
      emailApi.adminList({ page, status, search: search.trim() || undefined }).then(setData, (e: unknown) => {
        toast.error(failureText(e, 'Não foi possível carregar os e-mails.'));
      }),
    [page, status, search],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const resend = async (email: AdminEmailJson) => {
    try {
      toast.success((await emailApi.adminResend(email.id)).message, { admin: true });
      await load();
    } catch (e) {
      toast.error(failureText(e, 'Não foi possível reenviar o e-mail'));
    }
  };

  return (
    <>
      <PageHeader
        title="E-mails"
        subtitle="Mensagens enviadas pelo serviço, as mais recentes primeiro"
        actions={
          <Button variant="outline-secondary" size="sm" onClick={() => void load()}>
            Atualizar
          </Button>
        }
      />
      {data?.transport === 'outbox' && (
        <Alert variant="info" data-testid="outbox-notice">
          SMTP_URL não está configurada: os e-mails ficam apenas aqui, na caixa de saída, e não são entregues. Configure SMTP_URL no ambiente do servidor e reinicie-o:
          e os e-mails da última semana ainda na fila serão enviados.
        </Alert>
      )}
      {data && !data.publicUrlSet && (
        <Alert variant="warning">
          PUBLIC_URL não está configurada: os links dos e-mails usam <code>{data.linkBase}</code>.
        </Alert>
      )}
      <Card className="mb-3">
        <Card.Body className="d-flex flex-wrap gap-2">
          <Form.Select aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as EmailStatus | '')} style={{ maxWidth: 200 }}>
            <option value="">Todos os status</option>
            {EMAIL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {EMAIL_STATUS_LABELS[s]}
              </option>
            ))}
          </Form.Select>
          <Form.Control type="search" placeholder="Buscar por destinatário ou assunto" aria-label="Buscar" value={search} onChange={(e) => setSearch(e.target.value)} style={{ maxWidth: 360 }} />
        </Card.Body>
      </Card>
      <DataList<AdminEmailJson>
        items={data?.emails ?? null}
        rowKey={(e) => e.id}
        testId="emails-list"
        rowTestId="email-row"
        caption="E-mails"
        empty="Nenhum e-mail ainda."
        columns={[
          { key: 'subject', header: 'Assunto', primary: true, render: (e) => <Truncate text={e.subject} max="280px" /> },
          { key: 'to', header: 'Para', render: (e) => <Truncate text={e.to} max="220px" /> },
          { key: 'kind', header: 'Tipo', render: (e) => EMAIL_KIND_LABELS[e.kind] ?? e.kind },
          { key: 'status', header: 'Status', className: 'text-nowrap', render: (e) => <StatusBadge email={e} /> },
          { key: 'attempts', header: 'Tentativas', className: 'text-end', render: (e) => e.attempts },
          { key: 'createdAt', header: 'Criado em', className: 'text-nowrap', render: (e) => formatDateTime(e.createdAt) },
        ]}
        actions={(e) => (
          <div className="d-flex gap-1">
            <Button size="sm" variant="outline-primary" onClick={() => setViewing(e.id)} aria-label={`Ver e-mail: ${e.subject}`}>
              Ver
            </Button>
            {e.status === 'failed' && (
              <Button size="sm" variant="outline-secondary" onClick={() => void resend(e)} aria-label={`Reenviar e-mail: ${e.subject}`} data-testid="email-resend">
                Reenviar
              </Button>
            )}
          </div>
        )}
      />
      {data && <PageList page={page} totalPages={data.pagination.pages} onChange={setPage} />}
      <EmailViewer id={viewing} onHide={() => setViewing(null)} />
    </>
  );
}
