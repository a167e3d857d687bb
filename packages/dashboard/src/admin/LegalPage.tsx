/**
 * 'Termos e privacidade' (/admin/legal): the Termos de Uso and the Política de Privacidade —
 * the current text in an editor, "Publicar nova versão" (customers accept it at their next
 * request), and every version kept, each readable. The encarregado named on the privacy page
 * comes from Configurações › Suporte e privacidade.
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Nav from 'react-bootstrap/Nav';
import { Link } from 'react-router-dom';
import {
  LEGAL_DOCUMENT_KINDS,
  LEGAL_DOCUMENT_PATHS,
  LEGAL_DOCUMENT_TITLES,
  LEGAL_LIMITS,
  type AdminLegalDocumentResponse,
  type LegalDocumentKind,
  type LegalDocumentResponse,
} from '@aabify/shared';
import { isApiRequestError } from '../api/client';
import { legalApi } from '../api/legal';
import { PageHeader } from '../components/PageHeader';
import { Paragraphs } from '../components/PublicLayout';
import { formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';
import { useKeyedState } from '../lib/useKeyedState';

export default function LegalPage() {
  const [kind, setKind] = useState<LegalDocumentKind>('terms');
  const [data, setData] = useKeyedState<AdminLegalDocumentResponse | null>(kind, null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [viewing, setViewing] = useState<LegalDocumentResponse | null>(null);

  const apply = useCallback(
    (answer: AdminLegalDocumentResponse) => {
      setData(answer);
      setDraft(answer.document.body);
      setError(null);
    },
    [setData],
  );
  useEffect(() => {
    legalApi.adminDocument(kind).then(apply, () => undefined);
  }, [kind, apply]);

  const publish = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await legalApi.publish(kind, draft);
      toast.success(answer.message, { admin: true });
      apply(await legalApi.adminDocument(kind));
    } catch (e) {
      setError(isApiRequestError(e) ? (e.fields?.body ?? e.serverMessage ?? 'Não foi possível publicar.') : 'Não foi possível publicar.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Termos e privacidade" subtitle="Textos públicos que os clientes aceitam ao se cadastrar. Cada publicação é uma nova versão; as anteriores ficam guardadas." />
      <Nav variant="tabs" activeKey={kind} onSelect={(k) => k && setKind(k as LegalDocumentKind)} className="mb-3">
        {LEGAL_DOCUMENT_KINDS.map((k) => (
          <Nav.Item key={k}>
            <Nav.Link eventKey={k} data-testid={`legal-tab-${k}`}>
              {LEGAL_DOCUMENT_TITLES[k]}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      {data && (
        <>
          <Card className="mb-3">
            <Card.Body>
              <p className="text-body-secondary small">
                Versão atual: <strong data-testid="legal-current-version">{data.document.version}</strong> · público em{' '}
                <a href={LEGAL_DOCUMENT_PATHS[kind]} target="_blank" rel="noopener">
                  {LEGAL_DOCUMENT_PATHS[kind]}
                </a>
                {kind === 'privacy' && (
                  <>
                    {' '}
                    · encarregado (DPO): {data.document.dataProtectionOfficer?.email ?? <Link to="/admin/settings">indique em Configurações</Link>}
                  </>
                )}
              </p>
              <Form.Group controlId="legal-body">
                <Form.Label>Texto (parágrafos separados por uma linha em branco)</Form.Label>
                <Form.Control
                  as="textarea"
                  rows={16}
                  value={draft}
                  maxLength={LEGAL_LIMITS.bodyMaxLength}
                  isInvalid={Boolean(error)}
                  onChange={(e) => setDraft(e.currentTarget.value)}
                />
                <Form.Control.Feedback type="invalid" role="alert" id="legal-body-error">
                  {error}
                </Form.Control.Feedback>
              </Form.Group>
              <Alert variant="warning" className="mt-3 mb-3 small">
                Ao publicar, cada cliente precisará aceitar a nova versão antes de continuar usando o painel.
              </Alert>
              <Button disabled={busy} onClick={() => void publish()} data-testid="legal-publish">
                Publicar nova versão
              </Button>
            </Card.Body>
          </Card>
          <Card>
            <Card.Header>Versões</Card.Header>
            <ul className="list-group list-group-flush" data-testid="legal-versions">
              {data.versions.map((v) => (
                <li key={v.version} className="list-group-item d-flex justify-content-between align-items-center gap-2 flex-wrap">
                  <span>
                    Versão {v.version} · {v.publishedAt ? `${formatDateTime(v.publishedAt)} por ${v.publishedBy ?? '—'}` : 'texto original do aabify'}
                  </span>
                  <Button size="sm" variant="outline-secondary" onClick={() => void legalApi.adminVersion(kind, v.version).then(setViewing, () => undefined)}>
                    Ver
                  </Button>
                </li>
              ))}
            </ul>
          </Card>
        </>
      )}
      <Modal show={viewing !== null} onHide={() => setViewing(null)} size="lg" scrollable>
        <Modal.Header closeButton>
          <Modal.Title>
            {viewing ? `${viewing.title} — versão ${viewing.version}` : ''}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{viewing && <Paragraphs text={viewing.body} />}</Modal.Body>
      </Modal>
    </>
  );
}
