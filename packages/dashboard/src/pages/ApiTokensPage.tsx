/**
 * /account/api-tokens — 'Tokens de API': the personal tokens the CLI and CI pipelines act with
 * (docs/accounts.md, "API tokens"; docs/cli.md). Lists every token of the account by name and
 * prefix — those `aabify login` made too, so an owner can spot one they do not recognise —
 * creates one and shows its secret once, and revokes one after a confirmation.
 */
import { useEffect, useState } from 'react';
import { ErrorMessage, Field, Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import {
  API_TOKEN_DEFAULT_SCOPES,
  API_TOKEN_SCOPES,
  API_TOKEN_SCOPE_LABELS,
  API_TOKENS_PER_USER,
  createApiTokenSchema,
  helpPath,
  type ApiTokenJson,
  type ApiTokenScope,
  type CreatedApiTokenResponse,
} from '@aabify/shared';
import { Link } from 'react-router-dom';
import { isApiRequestError } from '../api/client';
import { apiTokensApi } from '../api/apiTokens';
import { ConfirmModal } from '../components/ConfirmModal';
import { DataList, type Column } from '../components/DataList';
import { FormField } from '../components/FormField';
import { Icon } from '../components/Icon';
import { Loading } from '../components/Loading';
import { usePageTitle } from '../components/PageHeader';
import { ResendVerificationButton } from '../components/ResendVerificationButton';
import { Truncate } from '../components/Truncate';
import { apiTokenLastUsed, apiTokenPrefixLabel, apiTokenRefusal, withCreatedToken, withoutToken, type ApiTokenRefusal } from '../lib/apiTokens';
import { formatDate } from '../lib/format';
import { scopeNames } from '../lib/security';
import { showServerErrors } from '../lib/formErrors';
import { toast } from '../stores/toasts';
import { COPY_CONFIRMATION_MS } from './plans/PixModal';
import { SubmitButton } from '../components/SubmitButton';

export const API_TOKENS_PAGE_TEXTS = {
  title: 'Tokens de API',
  intro:
    'Tokens de API deixam o CLI do aabify e os seus pipelines de CI (GitHub Actions, GitLab CI, Bitrise…) converterem com a sua conta sem usar a sua senha. Cada token faz só o que os escopos escolhidos na criação permitem, até ser revogado — nunca altera a conta (senha, chaves, tokens) nem tem acesso de administrador.',
  scopesLabel: 'O que o token pode fazer',
  scopesHelper: 'Dê a cada token só o que o lugar onde ele será usado precisa.',
  security:
    'O token só aparece uma vez, logo depois de criado: guarde-o como segredo do seu CI. Depois disso só o nome e o início de cada token ficam visíveis. Não reconhece um token da lista? Revogue-o.',
  howTo: 'No pipeline, entregue o token na variável AABIFY_TOKEN (CLI) ou na entrada token da GitHub Action.',
  empty: 'Nenhum token de API criado.',
  emptyHint:
    'Crie um token para cada lugar onde ele for usado — por exemplo "GitHub Actions" — e guarde-o como o segredo AABIFY_TOKEN do pipeline (ou na entrada token da GitHub Action). O aabify login do CLI cria o próprio token, que também aparece aqui.',
  nameHelper: 'Diga onde o token será usado, como "GitHub Actions" ou "GitLab CI".',
  secretLabel: 'Seu novo token',
  secretUse: 'Use-o como o segredo AABIFY_TOKEN do pipeline ou na entrada token da GitHub Action.',
  revokeTitle: 'Revogar token',
  revokeBody: 'Pipelines e CLIs que usam este token deixarão de funcionar imediatamente, até receberem um novo token. Esta ação não pode ser desfeita.',
  revoked: 'Token revogado.',
  loadError: 'Não foi possível carregar os tokens de API.',
  createError: 'Erro ao criar o token',
  revokeError: 'Erro ao revogar o token',
  copyFailed: 'Não foi possível copiar: selecione o token e copie-o manualmente.',
} as const;

type Load = 'loading' | 'ready' | 'error';

/** The secret of the token just created, shown this once: closing the box (or leaving) drops it. */
function NewTokenSecret({ created, onClose }: { created: CreatedApiTokenResponse; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied(true);
    } catch {
      toast.error(API_TOKENS_PAGE_TEXTS.copyFailed);
    }
  };
  return (
    <Alert variant="success" className="mb-3" data-testid="api-token-secret">
      <h2 className="h6 text-break">Token "{created.name}" criado</h2>
      <p className="fw-semibold">{created.message}</p>
      <Form.Label htmlFor="api-token-value" className="small">
        {API_TOKENS_PAGE_TEXTS.secretLabel}
      </Form.Label>
      {/* Wraps instead of scrolling: the whole secret stays readable on a phone. Focused and
          selected on arrival, so a keyboard or screen-reader user lands on it. */}
      <Form.Control
        as="textarea"
        rows={2}
        id="api-token-value"
        className="api-token-value mb-2"
        readOnly
        value={created.token}
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        spellCheck={false}
      />
      <p className="small mb-2">{API_TOKENS_PAGE_TEXTS.secretUse}</p>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="success" size="sm" onClick={() => void copy()} data-testid="api-token-copy">
          <Icon name="clipboard" className="me-1" />
          {copied ? 'Copiado!' : 'Copiar token'}
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={onClose}>
          Já copiei, fechar
        </Button>
      </div>
    </Alert>
  );
}

interface CreateValues {
  name: string;
  scopes: ApiTokenScope[];
}

/** One checkbox per scope, with what it allows. */
function ScopeChoices() {
  return (
    <fieldset className="mb-3" data-testid="api-token-scopes">
      <legend className="form-label fs-6 mb-1">{API_TOKENS_PAGE_TEXTS.scopesLabel}</legend>
      {API_TOKEN_SCOPES.map((scope) => (
        <div className="form-check" key={scope}>
          <Field type="checkbox" name="scopes" value={scope} id={`scope-${scope}`} className="form-check-input" />
          <label className="form-check-label" htmlFor={`scope-${scope}`}>
            <strong>{API_TOKEN_SCOPE_LABELS[scope].label}</strong> <code className="small">{scope}</code>
            <span className="d-block small text-body-secondary">{API_TOKEN_SCOPE_LABELS[scope].description}</span>
          </label>
        </div>
      ))}
      <ErrorMessage name="scopes">{(message) => <div className="small text-danger" role="alert">{message}</div>}</ErrorMessage>
      <div className="form-text">{API_TOKENS_PAGE_TEXTS.scopesHelper}</div>
    </fieldset>
  );
}

function CreateTokenForm({ onCreated }: { onCreated(created: CreatedApiTokenResponse): void }) {
  // The limit and an unconfirmed address are not about the name: said in the form, not on the field.
  const [refusal, setRefusal] = useState<ApiTokenRefusal | null>(null);
  const submit = async (values: CreateValues, helpers: FormikHelpers<CreateValues>) => {
    setRefusal(null);
    try {
      onCreated(await apiTokensApi.create(values.name.trim(), values.scopes));
      helpers.resetForm();
    } catch (e) {
      const inPlace = isApiRequestError(e) ? apiTokenRefusal(e) : null;
      if (inPlace) setRefusal(inPlace);
      else showServerErrors(e, helpers, ['name'], API_TOKENS_PAGE_TEXTS.createError);
    } finally {
      helpers.setSubmitting(false);
    }
  };
  return (
    <Card className="mb-3" data-testid="api-token-form">
      <Card.Header as="h2" className="h6 mb-0">
        Novo token
      </Card.Header>
      <Card.Body>
        <Formik<CreateValues>
          initialValues={{ name: '', scopes: [...API_TOKEN_DEFAULT_SCOPES] }}
          validationSchema={createApiTokenSchema}
          validateOnBlur={false}
          onSubmit={submit}
        >
          {({ isSubmitting }) => (
            <FormikForm noValidate>
              <FormField name="name" label="Nome do token" autoComplete="off" helper={API_TOKENS_PAGE_TEXTS.nameHelper} />
              <ScopeChoices />
              {refusal && (
                <Alert variant="warning" className="small d-flex flex-wrap align-items-center gap-2" data-testid="api-token-refusal">
                  <span className="flex-grow-1">{refusal.message}</span>
                  {refusal.resendVerification && <ResendVerificationButton />}
                </Alert>
              )}
              <SubmitButton busy={isSubmitting} data-testid="api-token-submit">
                Criar token
              </SubmitButton>
            </FormikForm>
          )}
        </Formik>
      </Card.Body>
    </Card>
  );
}

const TOKEN_COLUMNS: ReadonlyArray<Column<ApiTokenJson>> = [
  { key: 'name', header: 'Nome', primary: true, render: (t) => <Truncate text={t.name} max="12rem" /> },
  {
    key: 'prefix',
    header: 'Token',
    className: 'text-nowrap',
    render: (t) => (
      <code className="text-body" data-testid="api-token-prefix">
        {apiTokenPrefixLabel(t.prefix)}
      </code>
    ),
  },
  { key: 'scopes', header: 'Escopos', render: (t) => <span data-testid="api-token-scopes-cell">{scopeNames(t.scopes)}</span> },
  { key: 'createdAt', header: 'Criado em', className: 'text-nowrap', render: (t) => formatDate(t.createdAt) },
  {
    key: 'lastUsedAt',
    header: 'Último uso',
    className: 'text-nowrap',
    render: (t) => (
      <span className={t.lastUsedAt ? undefined : 'text-body-secondary'} data-testid="api-token-last-used">
        {apiTokenLastUsed(t.lastUsedAt)}
      </span>
    ),
  },
];

export default function ApiTokensPage() {
  usePageTitle(API_TOKENS_PAGE_TEXTS.title);
  const [load, setLoad] = useState<Load>('loading');
  const [tokens, setTokens] = useState<ApiTokenJson[]>([]);
  // Only here, never in a store: leaving the page forgets the secret with it.
  const [created, setCreated] = useState<CreatedApiTokenResponse | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenJson | null>(null);
  const [busy, setBusy] = useState(false);
  // Read on every visit, no cache: this is where an owner checks what can act for them.
  const fetchTokens = () => {
    apiTokensApi.list().then(
      (list) => {
        setTokens(list);
        setLoad('ready');
      },
      () => setLoad('error'),
    );
  };
  useEffect(fetchTokens, []);
  const retry = () => {
    setLoad('loading');
    fetchTokens();
  };
  const onCreated = (answer: CreatedApiTokenResponse) => {
    setCreated(answer);
    setTokens((list) => withCreatedToken(list, answer));
  };
  const revoke = async (token: ApiTokenJson) => {
    setBusy(true);
    try {
      await apiTokensApi.revoke(token.id);
      toast.success(API_TOKENS_PAGE_TEXTS.revoked);
    } catch (e) {
      // A 404 is a token already gone (revoked elsewhere): the list drops it all the same.
      if (!(isApiRequestError(e) && e.status === 404)) {
        toast.error(isApiRequestError(e) ? (e.serverMessage ?? API_TOKENS_PAGE_TEXTS.revokeError) : API_TOKENS_PAGE_TEXTS.revokeError);
        setBusy(false);
        return;
      }
    }
    setTokens((list) => withoutToken(list, token.id));
    if (created?.id === token.id) setCreated(null);
    setRevoking(null);
    setBusy(false);
  };
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }} data-testid="api-tokens-page">
      <h1 className="h3 mb-3">{API_TOKENS_PAGE_TEXTS.title}</h1>
      <p>{API_TOKENS_PAGE_TEXTS.intro}</p>
      <Alert variant="info" className="small">
        {API_TOKENS_PAGE_TEXTS.security}
      </Alert>
      <p className="small text-body-secondary">
        {API_TOKENS_PAGE_TEXTS.howTo} Veja como na Ajuda: <Link to={helpPath('cli-e-ci')}>O CLI do aabify e pipelines de CI</Link> ·{' '}
        <Link to={helpPath('tokens-de-api')}>Tokens de API</Link> · <a href="/api/docs" data-testid="api-docs-link">Referência da API</a>.
      </p>
      {created && <NewTokenSecret key={created.id} created={created} onClose={() => setCreated(null)} />}
      {load === 'loading' && <Loading />}
      {load === 'error' && (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
          {API_TOKENS_PAGE_TEXTS.loadError}
          <Button size="sm" variant="outline-danger" onClick={retry}>
            Tentar Novamente
          </Button>
        </Alert>
      )}
      {load === 'ready' && <CreateTokenForm onCreated={onCreated} />}
      {load === 'ready' && (
        <section aria-labelledby="api-tokens-list-title">
          <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-2">
            <h2 id="api-tokens-list-title" className="h6 mb-0">
              Seus tokens
            </h2>
            <span className="small text-body-secondary" data-testid="api-tokens-count">
              {tokens.length} de {API_TOKENS_PER_USER}
            </span>
          </div>
          <DataList
            items={tokens}
            columns={TOKEN_COLUMNS}
            rowKey={(t) => t.id}
            testId="api-tokens"
            rowTestId="api-token-row"
            caption="Seus tokens de API"
            empty={
              <div className="text-start">
                <p className="fw-semibold text-body mb-1">{API_TOKENS_PAGE_TEXTS.empty}</p>
                <p className="small mb-0">{API_TOKENS_PAGE_TEXTS.emptyHint}</p>
              </div>
            }
            actions={(t) => (
              <Button variant="outline-danger" size="sm" onClick={() => setRevoking(t)} aria-label={`Revogar o token ${t.name}`}>
                Revogar
              </Button>
            )}
          />
        </section>
      )}
      <ConfirmModal
        show={revoking !== null}
        title={API_TOKENS_PAGE_TEXTS.revokeTitle}
        confirmLabel="Revogar"
        busy={busy}
        onConfirm={() => revoking && void revoke(revoking)}
        onHide={() => setRevoking(null)}
      >
        {revoking && (
          <p className="text-break">
            <strong>{revoking.name}</strong> (<code className="text-body">{apiTokenPrefixLabel(revoking.prefix)}</code>)
          </p>
        )}
        <p className="mb-0">{API_TOKENS_PAGE_TEXTS.revokeBody}</p>
      </ConfirmModal>
    </div>
  );
}
