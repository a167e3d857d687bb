import { useEffect, useRef, useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, isTwoFactorChallenge, verifyEmailNewPasswordFormSchema, verifyEmailSignInFormSchema, type VerifyEmailResponse } from '@aabify/shared';
import { emailApi } from '../api/email';
import { isApiRequestError } from '../api/client';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { SubmitButton } from '../components/SubmitButton';
import type { LoginEntryState } from './LoginPage';

type State =
  | { kind: 'checking' }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string }
  /** Nobody is signed in to the account here: its password, or a new one, proves it is theirs. */
  | { kind: 'prove'; email: string; how: 'password' | 'newPassword' };

interface PasswordValues {
  password: string;
}
interface NewPasswordValues {
  newPassword: string;
  confirmPassword: string;
}

/** The address the server names when it asks for a proof (VERIFY_SIGN_IN_REQUIRED). */
function addressToProve(e: unknown): string | undefined {
  if (!isApiRequestError(e) || e.code !== 'VERIFY_SIGN_IN_REQUIRED') return undefined;
  const email = (e.details as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * /verify-email?token=… — the confirmation link. Signed in to the account, it confirms at once.
 * Elsewhere the link alone is not enough (whoever registered the address may not own the
 * mailbox): the page asks for the account's password, or lets the mailbox's owner set a new one,
 * which ends the access of whoever chose the old.
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const signedInEmail = useSession((s) => (s.token ? (s.user?.email ?? '') : undefined));
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const [state, setState] = useState<State>(() => (token ? { kind: 'checking' } : { kind: 'failed', message: EMAIL_MESSAGES.linkTokenRequired }));
  const sent = useRef(false);
  useEffect(() => {
    // Once: a link that works is used up, and React may run effects twice in development.
    if (sent.current || !token) return;
    sent.current = true;
    emailApi.verifyEmail({ token }).then(
      (res) => {
        setState({ kind: 'done', message: res.message });
        if (useSession.getState().token) void useSession.getState().refreshUser();
      },
      (e: unknown) => {
        const email = addressToProve(e);
        if (email !== undefined) setState({ kind: 'prove', email, how: 'password' });
        else setState({ kind: 'failed', message: isApiRequestError(e) && e.serverMessage ? e.serverMessage : EMAIL_MESSAGES.verifyLinkInvalid });
      },
    );
  }, [token]);

  /** Signed in to the confirmed account: the dashboard, with the server's message. */
  const enter = (res: VerifyEmailResponse) => {
    toast.success(res.message);
    // With two-factor sign-in the password alone does not sign in: the code is asked on /login.
    if (isTwoFactorChallenge(res)) return navigate('/login', { replace: true, state: { challenge: res } satisfies LoginEntryState });
    if (res.token && res.user) signIn(res.token, res.user);
    navigate('/dashboard', { replace: true });
  };
  const proveWithPassword = async (values: PasswordValues, helpers: FormikHelpers<PasswordValues>) => {
    try {
      enter(await emailApi.verifyEmail({ token, password: values.password }));
    } catch (e) {
      showServerErrors(e, helpers, ['password'], 'Erro ao confirmar o e-mail');
      helpers.setSubmitting(false);
    }
  };
  const proveWithNewPassword = async (values: NewPasswordValues, helpers: FormikHelpers<NewPasswordValues>) => {
    try {
      enter(await emailApi.verifyEmail({ token, newPassword: values.newPassword, confirmPassword: values.confirmPassword }));
    } catch (e) {
      showServerErrors(e, helpers, ['newPassword', 'confirmPassword'], 'Erro ao criar a nova senha');
      helpers.setSubmitting(false);
    }
  };

  if (state.kind === 'prove') {
    const otherAccount = signedInEmail !== undefined && signedInEmail !== state.email;
    return (
      <AuthLayout title="Confirmar e-mail" subtitle={state.how === 'password' ? EMAIL_MESSAGES.verifySignInRequired : undefined}>
        <p className="mb-3">
          Conta: <strong data-testid="verify-account-email">{state.email}</strong>
        </p>
        {otherAccount && (
          <Alert variant="info" data-testid="verify-other-session">
            Você está conectado com outra conta{signedInEmail ? ` (${signedInEmail})` : ''}. Ao confirmar, você passa a usar a conta acima.
          </Alert>
        )}
        {state.how === 'password' ? (
          <Formik<PasswordValues> initialValues={{ password: '' }} validationSchema={verifyEmailSignInFormSchema} validateOnBlur={false} onSubmit={proveWithPassword}>
            {({ isSubmitting }) => (
              <FormikForm noValidate>
                <FormField name="password" label="Senha desta conta" type="password" autoComplete="current-password" autoFocus />
                <SubmitButton busy={isSubmitting} className="w-100">
                  Confirmar e entrar
                </SubmitButton>
              </FormikForm>
            )}
          </Formik>
        ) : (
          <Formik<NewPasswordValues>
            initialValues={{ newPassword: '', confirmPassword: '' }}
            validationSchema={verifyEmailNewPasswordFormSchema}
            validateOnBlur={false}
            onSubmit={proveWithNewPassword}
          >
            {({ isSubmitting }) => (
              <FormikForm noValidate>
                <Alert variant="warning" data-testid="verify-new-password-warning">
                  Se outra pessoa criou esta conta com o seu e-mail, ela perde o acesso: a senha anterior deixa de funcionar e as sessões, os
                  tokens de API, os links de download, a keystore e a chave do Google Play feitos antes são removidos.
                </Alert>
                <FormField name="newPassword" label="Nova senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} autoFocus />
                <FormField name="confirmPassword" label="Confirmar nova senha" type="password" autoComplete="new-password" />
                <SubmitButton busy={isSubmitting} className="w-100">
                  Criar senha e confirmar
                </SubmitButton>
              </FormikForm>
            )}
          </Formik>
        )}
        <p className="mt-3 mb-0 text-center">
          {state.how === 'password' ? (
            <Button variant="link" className="p-0" onClick={() => setState({ ...state, how: 'newPassword' })}>
              Não criei esta conta ou não sei a senha
            </Button>
          ) : (
            <Button variant="link" className="p-0" onClick={() => setState({ ...state, how: 'password' })}>
              Sei a senha desta conta
            </Button>
          )}
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Confirmação de e-mail">
      {state.kind === 'checking' && (
        <p className="d-flex align-items-center gap-2 mb-0">
          <Spinner size="sm" aria-hidden="true" /> Confirmando…
        </p>
      )}
      {state.kind === 'done' && (
        <Alert variant="success" data-testid="verify-result">
          {state.message}
        </Alert>
      )}
      {state.kind === 'failed' && (
        <Alert variant="danger" data-testid="verify-result">
          {state.message}
        </Alert>
      )}
      <p className="mt-3 mb-0 text-center">
        <Link to={signedInEmail !== undefined ? '/dashboard' : '/login'}>{signedInEmail !== undefined ? 'Ir para o painel' : 'Entrar'}</Link>
      </p>
    </AuthLayout>
  );
}
