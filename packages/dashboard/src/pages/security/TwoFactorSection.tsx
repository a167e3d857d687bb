import { useEffect, useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { SECURITY_MESSAGES, twoFactorDisableSchema, twoFactorEnableSchema, type TwoFactorSetupResponse, type TwoFactorStatus } from '@aabify/shared';
import { securityApi } from '../../api/security';
import { isApiRequestError } from '../../api/client';
import { ConfirmModal } from '../../components/ConfirmModal';
import { FormField } from '../../components/FormField';
import { Loading } from '../../components/Loading';
import { SubmitButton } from '../../components/SubmitButton';
import { showServerErrors } from '../../lib/formErrors';
import { formatDateTime } from '../../lib/format';
import { SECURITY_PAGE_TEXTS } from '../../lib/security';
import { useSession } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { RecoveryCodes } from './RecoveryCodes';

const failure = (e: unknown, fallback: string) => (isApiRequestError(e) && e.serverMessage ? e.serverMessage : fallback);

/** Scan the QR code, then the app's first code turns two-factor sign-in on. */
function Enrolment({ setup, onEnabled, onCancel }: { setup: TwoFactorSetupResponse; onEnabled(codes: string[]): void; onCancel(): void }) {
  const submit = async (values: { code: string }, helpers: FormikHelpers<{ code: string }>) => {
    try {
      const res = await securityApi.enableTwoFactor(values.code);
      toast.success(res.message);
      onEnabled(res.recoveryCodes);
    } catch (e) {
      showServerErrors(e, helpers, ['code'], SECURITY_MESSAGES.twoFactorCodeInvalid);
      helpers.setSubmitting(false);
    }
  };
  return (
    <div data-testid="two-factor-enrolment">
      <p>{SECURITY_PAGE_TEXTS.scanHelp}</p>
      <div className="d-flex flex-wrap gap-3 align-items-start mb-3">
        <img src={setup.qrCode} alt="Código QR para o aplicativo autenticador" width={180} height={180} className="bg-white border rounded" />
        <div className="flex-grow-1" style={{ minWidth: 200 }}>
          <p className="small mb-1">Chave para digitar no aplicativo:</p>
          <code className="d-block text-break user-select-all" data-testid="two-factor-secret">
            {setup.secret}
          </code>
        </div>
      </div>
      <Formik initialValues={{ code: '' }} validationSchema={twoFactorEnableSchema} validateOnBlur={false} onSubmit={submit}>
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <FormField name="code" label="Código de 6 dígitos do aplicativo" autoComplete="one-time-code" autoFocus />
            <div className="d-flex gap-2">
              <SubmitButton busy={isSubmitting} data-testid="two-factor-enable">
                Ativar
              </SubmitButton>
              <Button variant="outline-secondary" onClick={onCancel}>
                Cancelar
              </Button>
            </div>
          </FormikForm>
        )}
      </Formik>
    </div>
  );
}

function DisableForm({ onDisabled }: { onDisabled(): void }) {
  const submit = async (values: { password: string; code: string }, helpers: FormikHelpers<{ password: string; code: string }>) => {
    try {
      const res = await securityApi.disableTwoFactor({ password: values.password, code: values.code.trim() });
      toast.success(res.message);
      onDisabled();
    } catch (e) {
      showServerErrors(e, helpers, ['password', 'code'], 'Erro ao desativar');
      helpers.setSubmitting(false);
    }
  };
  return (
    <Formik initialValues={{ password: '', code: '' }} validationSchema={twoFactorDisableSchema} validateOnBlur={false} onSubmit={submit}>
      {({ isSubmitting }) => (
        <FormikForm noValidate data-testid="two-factor-disable-form">
          <h3 className="h6">{SECURITY_PAGE_TEXTS.disableTitle}</h3>
          <p className="small">{SECURITY_PAGE_TEXTS.disableHelp}</p>
          <FormField name="password" label="Senha" type="password" autoComplete="current-password" />
          <FormField name="code" label="Código de verificação" autoComplete="one-time-code" />
          <SubmitButton busy={isSubmitting} variant="outline-danger" data-testid="two-factor-disable">
            Desativar
          </SubmitButton>
        </FormikForm>
      )}
    </Formik>
  );
}

/**
 * Conta › Segurança's two-factor sign-in: turn it on (QR code, then a first code), see and
 * renew the recovery codes, turn it off (password and code).
 */
export function TwoFactorSection({ onChanged }: { onChanged(): void }) {
  const [status, setStatus] = useState<TwoFactorStatus | null | 'error'>(null);
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const [showDisable, setShowDisable] = useState(false);
  const [busy, setBusy] = useState(false);
  const required = useSession((s) => s.user?.twoFactorSetupRequired === true);
  const refresh = () => securityApi.twoFactor().then(setStatus, () => setStatus('error'));
  useEffect(() => void refresh(), []);

  const begin = async () => {
    setBusy(true);
    try {
      setSetup(await securityApi.beginTwoFactor());
    } catch (e) {
      // A closed password prompt is no error to report.
      if (!(isApiRequestError(e) && e.code === 'REAUTH_REQUIRED')) toast.error(failure(e, 'Erro ao começar a configuração'));
    } finally {
      setBusy(false);
    }
  };
  const regenerate = async () => {
    setBusy(true);
    try {
      const res = await securityApi.regenerateRecoveryCodes();
      toast.success(res.message);
      setCodes(res.recoveryCodes);
      await refresh();
    } catch (e) {
      if (!(isApiRequestError(e) && e.code === 'REAUTH_REQUIRED')) toast.error(failure(e, 'Erro ao gerar os códigos'));
    } finally {
      setBusy(false);
      setConfirmRegenerate(false);
    }
  };

  let body;
  if (status === null) body = <Loading />;
  else if (status === 'error') body = <Alert variant="danger">{SECURITY_PAGE_TEXTS.loadError}</Alert>;
  else if (codes) {
    // Closed only once kept: then what the session may do is read again (an enrolment lifts a limit).
    body = (
      <RecoveryCodes
        codes={codes}
        onClose={() => {
          setCodes(null);
          onChanged();
        }}
      />
    );
  } else if (!status.enabled) {
    body = setup ? (
      <Enrolment
        setup={setup}
        onCancel={() => setSetup(null)}
        onEnabled={(recoveryCodes) => {
          setSetup(null);
          setCodes(recoveryCodes);
          void refresh();
        }}
      />
    ) : (
      <>
        <p className="mb-2" data-testid="two-factor-status">
          {SECURITY_PAGE_TEXTS.twoFactorOff}
        </p>
        <Button onClick={() => void begin()} disabled={busy} data-testid="two-factor-begin">
          Ativar verificação em duas etapas
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <p className="mb-2" data-testid="two-factor-status">
          Ativa desde {status.enabledAt ? formatDateTime(status.enabledAt) : '—'}. Códigos de recuperação restantes: <strong>{status.recoveryCodesLeft}</strong>.
        </p>
        <div className="d-flex flex-wrap gap-2 mb-3">
          <Button variant="outline-primary" size="sm" onClick={() => setConfirmRegenerate(true)} disabled={busy}>
            Gerar novos códigos de recuperação
          </Button>
          {!showDisable && (
            <Button variant="outline-danger" size="sm" onClick={() => setShowDisable(true)}>
              Desativar
            </Button>
          )}
        </div>
        {showDisable && (
          <DisableForm
            onDisabled={() => {
              setShowDisable(false);
              void refresh();
              onChanged();
            }}
          />
        )}
      </>
    );
  }

  return (
    <Card className="mb-4" data-testid="two-factor-section">
      <Card.Header as="h2" className="h6 mb-0">
        {SECURITY_PAGE_TEXTS.twoFactorTitle}
      </Card.Header>
      <Card.Body>
        {required && (
          <Alert variant="warning" data-testid="two-factor-required">
            {SECURITY_MESSAGES.twoFactorSetupRequired}
          </Alert>
        )}
        <p className="small text-body-secondary">{SECURITY_PAGE_TEXTS.twoFactorIntro}</p>
        {body}
      </Card.Body>
      <ConfirmModal
        show={confirmRegenerate}
        title="Gerar novos códigos de recuperação"
        confirmLabel="Gerar"
        variant="primary"
        busy={busy}
        onConfirm={() => void regenerate()}
        onHide={() => setConfirmRegenerate(false)}
      >
        <p className="mb-0">{SECURITY_PAGE_TEXTS.regenerateBody}</p>
      </ConfirmModal>
    </Card>
  );
}
