/**
 * /account/google-play — 'Google Play': the Google Cloud service-account key the account
 * publishes with (docs/play.md). Shows only the service account's e-mail and project, takes a
 * new key file (JSON), tests the connection on a package name ('Testar conexão': a token and an
 * edit opened and discarded, nothing changed) and removes the key after a confirmation.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router-dom';
import { PLAY_MESSAGES, helpPath, isPackageName, type PlayCredentialsMetadata } from '@aabify/shared';
import { isApiRequestError } from '../api/client';
import { playApi } from '../api/play';
import { ConfirmModal } from '../components/ConfirmModal';
import { FileDrop } from '../components/FileDrop';
import { Loading } from '../components/Loading';
import { formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';
import { usePageTitle } from '../components/PageHeader';

export const PLAY_PAGE_TEXTS = {
  title: 'Google Play',
  intro:
    'Cadastre a chave de uma conta de serviço do Google Cloud com acesso ao seu app no Play Console e publique os AABs convertidos direto numa faixa (teste interno, fechado, aberto ou produção), sem passar pelo Play Console.',
  security: 'A chave fica guardada criptografada e nunca pode ser baixada de volta — nem por você, nem por administradores. Só o e-mail da conta de serviço e o projeto são mostrados.',
  howTo: 'Como criar a conta de serviço e dar acesso a ela no Play Console: Google Cloud › IAM › Contas de serviço › Chaves › Adicionar chave › JSON; depois Play Console › Usuários e permissões › Convidar.',
  empty: 'Nenhuma conta de serviço cadastrada.',
  loadError: 'Não foi possível carregar as credenciais do Google Play.',
  deleteTitle: 'Remover credenciais do Google Play',
  deleteBody: 'Publicações novas não poderão ser feitas até você cadastrar outra chave. Publicações já feitas continuam no histórico.',
} as const;

type Load = 'loading' | 'ready' | 'error';

function Stored({ credentials, onDelete }: { credentials: PlayCredentialsMetadata; onDelete(): void }) {
  return (
    <Card className="mb-3" data-testid="play-credentials-stored">
      <Card.Header as="h2" className="h6 mb-0">
        Conta de serviço cadastrada
      </Card.Header>
      <Card.Body>
        <dl className="row mb-3">
          <dt className="col-sm-4 text-body-secondary fw-normal">E-mail</dt>
          <dd className="col-sm-8 text-break" data-testid="play-client-email">
            {credentials.clientEmail}
          </dd>
          <dt className="col-sm-4 text-body-secondary fw-normal">Projeto</dt>
          <dd className="col-sm-8" data-testid="play-project">
            {credentials.projectId ?? '—'}
          </dd>
          <dt className="col-sm-4 text-body-secondary fw-normal">Enviada em</dt>
          <dd className="col-sm-8">{formatDateTime(credentials.updatedAt)}</dd>
          {credentials.lastTestedAt && (
            <>
              <dt className="col-sm-4 text-body-secondary fw-normal">Último teste</dt>
              <dd className="col-sm-8" data-testid="play-last-test">
                {formatDateTime(credentials.lastTestedAt)} · {credentials.lastTestedPackage}
              </dd>
            </>
          )}
        </dl>
        <Button variant="outline-danger" size="sm" onClick={onDelete} data-testid="play-credentials-delete">
          Remover chave
        </Button>
      </Card.Body>
    </Card>
  );
}

function TestConnection({ onTested }: { onTested(c: PlayCredentialsMetadata): void }) {
  const [packageName, setPackageName] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const invalid = packageName.trim() !== '' && !isPackageName(packageName.trim());
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const res = await playApi.test(packageName.trim());
      setResult({ ok: true, message: res.message });
      onTested(res.credentials);
    } catch (e) {
      setResult({ ok: false, message: isApiRequestError(e) ? (e.serverMessage ?? e.message) : 'Erro de Conexão' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mb-3" data-testid="play-test">
      <Card.Header as="h2" className="h6 mb-0">
        Testar conexão
      </Card.Header>
      <Card.Body>
        <Form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!invalid && packageName.trim()) void run();
          }}
        >
          <Form.Group className="mb-2" controlId="play-test-package">
            <Form.Label>Nome do pacote do app</Form.Label>
            <Form.Control value={packageName} placeholder="com.empresa.app" onChange={(e) => setPackageName(e.target.value)} isInvalid={invalid} autoComplete="off" />
            <Form.Control.Feedback type="invalid">{PLAY_MESSAGES.packageNameInvalid}</Form.Control.Feedback>
            <Form.Text>Obtém um token e abre (e descarta em seguida) uma edição do app: nada é alterado no Play Console.</Form.Text>
          </Form.Group>
          <Button type="submit" variant="outline-primary" size="sm" disabled={busy || invalid || !packageName.trim()} data-testid="play-test-submit">
            {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Testar conexão
          </Button>
        </Form>
        {result && (
          <Alert variant={result.ok ? 'success' : 'danger'} className="small mt-3 mb-0" data-testid="play-test-result">
            {result.message}
          </Alert>
        )}
      </Card.Body>
    </Card>
  );
}

function UploadKey({ replacing, onSaved }: { replacing: boolean; onSaved(c: PlayCredentialsMetadata): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!file) return setError(PLAY_MESSAGES.keyRequired);
    setBusy(true);
    setError(null);
    try {
      const res = await playApi.saveCredentials(await file.text());
      toast.success(res.message);
      setFile(null);
      onSaved(res.credentials);
    } catch (e) {
      setError(isApiRequestError(e) ? (e.serverMessage ?? e.message) : 'Erro de Conexão');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mb-3" data-testid="play-credentials-form">
      <Card.Header as="h2" className="h6 mb-0">
        {replacing ? 'Substituir chave' : 'Enviar chave da conta de serviço'}
      </Card.Header>
      <Card.Body>
        <div className="mb-3">
          <FileDrop
            files={file ? [file] : null}
            accept=".json,application/json"
            prompt="Arraste e solte o arquivo JSON da chave aqui ou clique para selecionar"
            touchPrompt="Toque para escolher o arquivo JSON da chave"
            help="O arquivo .json baixado em Google Cloud › IAM › Contas de serviço › Chaves."
            zoneLabel="Escolher chave"
            inputLabel="Arquivo da chave"
            idPrefix="play-key"
            invalid={Boolean(error)}
            rejection={error}
            onFiles={(files) => {
              setFile(files[0] ?? null);
              setError(null);
            }}
            onRemove={() => setFile(null)}
          />
        </div>
        <Button onClick={() => void save()} disabled={busy} data-testid="play-credentials-submit">
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Salvar chave
        </Button>
      </Card.Body>
    </Card>
  );
}

export default function PlayCredentialsPage() {
  usePageTitle(PLAY_PAGE_TEXTS.title);
  const [load, setLoad] = useState<Load>('loading');
  const [credentials, setCredentials] = useState<PlayCredentialsMetadata | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const fetchCredentials = () => {
    playApi.credentials().then(
      (c) => {
        setCredentials(c);
        setLoad('ready');
      },
      () => setLoad('error'),
    );
  };
  useEffect(fetchCredentials, []);
  const retry = () => {
    setLoad('loading');
    fetchCredentials();
  };
  const remove = async () => {
    setDeleting(true);
    try {
      await playApi.deleteCredentials();
      toast.success(PLAY_MESSAGES.deleted);
    } catch (e) {
      if (!(isApiRequestError(e) && e.status === 404)) toast.error(isApiRequestError(e) ? (e.serverMessage ?? e.message) : 'Erro de Conexão');
    } finally {
      setCredentials(null);
      setConfirming(false);
      setDeleting(false);
    }
  };
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }} data-testid="play-page">
      <h1 className="h3 mb-3">{PLAY_PAGE_TEXTS.title}</h1>
      <p>{PLAY_PAGE_TEXTS.intro}</p>
      <Alert variant="info" className="small">
        {PLAY_PAGE_TEXTS.security}
      </Alert>
      <p className="small text-body-secondary">
        {PLAY_PAGE_TEXTS.howTo} Passo a passo na Ajuda: <Link to={helpPath('publicar-no-google-play')}>Publicar no Google Play</Link>.
      </p>
      {load === 'loading' && <Loading />}
      {load === 'error' && (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
          {PLAY_PAGE_TEXTS.loadError}
          <Button size="sm" variant="outline-danger" onClick={retry}>
            Tentar Novamente
          </Button>
        </Alert>
      )}
      {load === 'ready' && credentials && <Stored credentials={credentials} onDelete={() => setConfirming(true)} />}
      {load === 'ready' && credentials && <TestConnection onTested={setCredentials} />}
      {load === 'ready' && !credentials && (
        <Card className="mb-3" data-testid="play-credentials-empty">
          <Card.Body className="fw-semibold">{PLAY_PAGE_TEXTS.empty}</Card.Body>
        </Card>
      )}
      {load === 'ready' && <UploadKey replacing={credentials !== null} onSaved={setCredentials} />}
      <ConfirmModal show={confirming} title={PLAY_PAGE_TEXTS.deleteTitle} confirmLabel="Remover" busy={deleting} onConfirm={() => void remove()} onHide={() => setConfirming(false)}>
        {PLAY_PAGE_TEXTS.deleteBody}
      </ConfirmModal>
    </div>
  );
}
