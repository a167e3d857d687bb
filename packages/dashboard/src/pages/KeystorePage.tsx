/**
 * /account/keystore — 'Chave de upload': the upload keystore kept in the account to sign
 * conversions (docs/signing.md "Sign conversions in the web service"). Shows the stored certificate's public facts or what the key
 * is for, takes a new keystore (the server opens it before storing it: a wrong file, password or
 * alias comes back on its field), and removes it after a confirmation.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Form as FormikForm, Formik, useField, useFormikContext, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import { KEYSTORE_MESSAGES, type KeystoreMetadata } from '@aabify/shared';
import { isApiRequestError } from '../api/client';
import { keystoreApi } from '../api/keystore';
import { ConfirmModal } from '../components/ConfirmModal';
import { FileDrop } from '../components/FileDrop';
import { FormField } from '../components/FormField';
import { Loading } from '../components/Loading';
import { formatDate, formatDateTime } from '../lib/format';
import {
  bytesToBase64,
  KEYSTORE_ACCEPT,
  KEYSTORE_FORM_INITIAL,
  keystoreFieldErrors,
  keystoreFormSchema,
  type KeystoreFormValues,
} from '../lib/keystore';
import { useKeystore } from '../stores/keystore';
import { toast } from '../stores/toasts';
import { usePageTitle } from '../components/PageHeader';
import { SubmitButton } from '../components/SubmitButton';

export const KEYSTORE_PAGE_TEXTS = {
  title: 'Chave de upload',
  intro:
    'O Google Play só aceita App Bundles assinados com a sua chave de upload (Play App Signing). Cadastre aqui o keystore dessa chave e o aabify assina os AABs que você converter — basta marcar "Assinar o AAB com minha chave de upload" no conversor.',
  security:
    'O keystore e as senhas ficam guardados criptografados e nunca podem ser baixados de volta — nem por você, nem por administradores. Guarde sua cópia do arquivo e da senha em local seguro.',
  empty: 'Nenhuma chave de upload cadastrada.',
  emptyHint: 'Ainda não tem uma? Gere com o keytool do JDK ou com aabify keygen (veja a documentação de assinatura) e registre o certificado no Play Console.',
  debug: 'Este é um certificado de depuração (CN=Android Debug): o Google Play recusa uploads assinados com ele.',
  expired: 'O certificado desta chave já expirou: o Google Play recusa uploads assinados com ele.',
  deleteTitle: 'Remover chave de upload',
  deleteBody: 'As próximas conversões não poderão ser assinadas até que você cadastre outro keystore. Como o aabify não guarda cópia acessível, tenha o arquivo em mãos se quiser usá-lo de novo.',
  loadError: 'Não foi possível carregar a chave de upload.',
  saveError: 'Erro ao salvar o keystore',
  deleteError: 'Erro ao remover o keystore',
} as const;

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="row mb-2">
      <dt className="col-sm-4 col-lg-3 text-body-secondary fw-normal">{label}</dt>
      <dd className="col-sm-8 col-lg-9 mb-0 text-break" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function StoredKeystore({ keystore, onDelete }: { keystore: KeystoreMetadata; onDelete(): void }) {
  // The time the card was first shown: it says 'expirada' from then on, not as the clock moves.
  const [shownAt] = useState(Date.now);
  const expired = new Date(keystore.notAfter).getTime() < shownAt;
  const debug = /CN=Android Debug/i.test(keystore.subject);
  return (
    <Card className="mb-3" data-testid="keystore-stored">
      <Card.Header as="h2" className="h6 mb-0">
        Chave cadastrada
      </Card.Header>
      <Card.Body>
        <dl className="mb-3">
          <Fact label="Alias" testId="keystore-alias">
            {keystore.alias}
          </Fact>
          <Fact label="Tipo">
            {keystore.format}, {keystore.keyAlgorithm} {keystore.keySize} bits
          </Fact>
          <Fact label="Certificado" testId="keystore-subject">
            {keystore.subject}
          </Fact>
          <Fact label="SHA-256" testId="keystore-sha256">
            <code className="text-break">{keystore.certificateSha256}</code>
          </Fact>
          <Fact label="Válido até" testId="keystore-not-after">
            {formatDate(keystore.notAfter)}
          </Fact>
          {keystore.fileName && <Fact label="Arquivo">{keystore.fileName}</Fact>}
          <Fact label="Enviado em">{formatDateTime(keystore.updatedAt)}</Fact>
        </dl>
        {debug && (
          <Alert variant="warning" className="small">
            {KEYSTORE_PAGE_TEXTS.debug}
          </Alert>
        )}
        {expired && (
          <Alert variant="warning" className="small">
            {KEYSTORE_PAGE_TEXTS.expired}
          </Alert>
        )}
        <p className="small text-body-secondary">Confira se o SHA-256 é o mesmo do <em>certificado da chave de upload</em> no Play Console.</p>
        <Button variant="outline-danger" size="sm" onClick={onDelete} data-testid="keystore-delete">
          Remover chave
        </Button>
      </Card.Body>
    </Card>
  );
}

/** The keystore file, picked with the same drop zone as the APK (the value is the File). */
function KeystoreFileField({ resetKey }: { resetKey: number }) {
  const [field, meta] = useField<File | null>('file');
  const { setFieldValue, setFieldTouched } = useFormikContext<KeystoreFormValues>();
  const invalid = Boolean(meta.touched && meta.error);
  const choose = (file: File | null) => {
    void setFieldValue('file', file, true);
    void setFieldTouched('file', true, false);
  };
  return (
    <div className="mb-3" key={resetKey}>
      <div className="form-label">Arquivo do keystore</div>
      <FileDrop
        files={field.value ? [field.value] : null}
        accept={KEYSTORE_ACCEPT}
        prompt="Arraste e solte o keystore aqui ou clique para selecionar"
        touchPrompt="Toque para escolher o keystore"
        help="PKCS12 (.p12, .pfx) ou JKS (.jks, .keystore), até 64 KB."
        zoneLabel="Escolher keystore"
        inputLabel="Arquivo do keystore"
        idPrefix="field-file"
        invalid={invalid}
        rejection={invalid ? meta.error : null}
        onFiles={(files) => choose(files[0] ?? null)}
        onRemove={() => choose(null)}
      />
    </div>
  );
}

function UploadForm({ replacing }: { replacing: boolean }) {
  const [resetKey, setResetKey] = useState(0);
  const submit = async (values: KeystoreFormValues, helpers: FormikHelpers<KeystoreFormValues>) => {
    const file = values.file;
    if (!file) return;
    try {
      const keystore = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
      const res = await keystoreApi.put({
        keystore,
        storePassword: values.storePassword,
        fileName: file.name,
        ...(values.alias.trim() ? { alias: values.alias.trim() } : {}),
        ...(values.keyPassword ? { keyPassword: values.keyPassword } : {}),
      });
      useKeystore.getState().set(res.keystore);
      toast.success(res.message || KEYSTORE_MESSAGES.saved);
      helpers.resetForm();
      setResetKey((k) => k + 1);
    } catch (e) {
      if (isApiRequestError(e)) {
        const fields = keystoreFieldErrors(e, values);
        if (Object.keys(fields).length) helpers.setErrors(fields);
        else toast.error(e.serverMessage ?? KEYSTORE_PAGE_TEXTS.saveError, e.status === 0 ? 'Erro de Conexão' : undefined);
      } else toast.error(KEYSTORE_PAGE_TEXTS.saveError);
    } finally {
      helpers.setSubmitting(false);
    }
  };
  return (
    <Card className="mb-3" data-testid="keystore-form">
      <Card.Header as="h2" className="h6 mb-0">
        {replacing ? 'Substituir keystore' : 'Enviar keystore'}
      </Card.Header>
      <Card.Body>
        <Formik<KeystoreFormValues> initialValues={KEYSTORE_FORM_INITIAL} validationSchema={keystoreFormSchema} validateOnBlur={false} onSubmit={submit}>
          {({ isSubmitting }) => (
            <FormikForm noValidate>
              <KeystoreFileField resetKey={resetKey} />
              <FormField name="alias" label="Alias da chave" autoComplete="off" helper="Opcional quando o keystore tem uma só chave." />
              <FormField name="storePassword" label="Senha do keystore" type="password" autoComplete="off" />
              <FormField name="keyPassword" label="Senha da chave" type="password" autoComplete="off" helper="Só se for diferente da senha do keystore (chaves JKS criadas com -keypass)." />
              {replacing && <p className="small text-body-secondary">O novo keystore substitui a chave cadastrada.</p>}
              <SubmitButton busy={isSubmitting} data-testid="keystore-submit">
                Salvar chave
              </SubmitButton>
            </FormikForm>
          )}
        </Formik>
      </Card.Body>
    </Card>
  );
}

export default function KeystorePage() {
  usePageTitle('Chave de upload');
  const { status, keystore } = useKeystore();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    void useKeystore.getState().load();
  }, []);

  const remove = async () => {
    setDeleting(true);
    try {
      await keystoreApi.delete();
      toast.success(KEYSTORE_MESSAGES.deleted);
      useKeystore.getState().set(null);
      setConfirming(false);
    } catch (e) {
      if (isApiRequestError(e) && e.status === 404) {
        useKeystore.getState().set(null);
        setConfirming(false);
      } else toast.error(isApiRequestError(e) ? (e.serverMessage ?? KEYSTORE_PAGE_TEXTS.deleteError) : KEYSTORE_PAGE_TEXTS.deleteError);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className="mx-auto" style={{ maxWidth: 760 }}>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">{KEYSTORE_PAGE_TEXTS.title}</h1>
        <Link to="/converter" className="btn btn-outline-secondary btn-sm">
          Ir para o conversor
        </Link>
      </div>
      <p>{KEYSTORE_PAGE_TEXTS.intro}</p>
      <Alert variant="info" className="small" data-testid="keystore-security">
        {KEYSTORE_PAGE_TEXTS.security}
      </Alert>

      {(status === 'idle' || status === 'loading') && <Loading />}
      {status === 'error' && (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
          {KEYSTORE_PAGE_TEXTS.loadError}
          <Button size="sm" variant="outline-danger" onClick={() => void useKeystore.getState().load()}>
            Tentar Novamente
          </Button>
        </Alert>
      )}
      {status === 'ready' && keystore && <StoredKeystore keystore={keystore} onDelete={() => setConfirming(true)} />}
      {status === 'ready' && !keystore && (
        <Card className="mb-3" data-testid="keystore-empty">
          <Card.Body>
            <p className="fw-semibold mb-1">{KEYSTORE_PAGE_TEXTS.empty}</p>
            <p className="small text-body-secondary mb-0">{KEYSTORE_PAGE_TEXTS.emptyHint}</p>
          </Card.Body>
        </Card>
      )}
      {status === 'ready' && <UploadForm replacing={keystore !== null} />}

      <ConfirmModal show={confirming} title={KEYSTORE_PAGE_TEXTS.deleteTitle} confirmLabel="Remover" busy={deleting} onConfirm={() => void remove()} onHide={() => setConfirming(false)}>
        {KEYSTORE_PAGE_TEXTS.deleteBody}
      </ConfirmModal>
    </div>
  );
}
