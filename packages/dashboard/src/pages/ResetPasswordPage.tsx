import { useEffect, useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, isTwoFactorChallenge, resetPasswordFormSchema } from '@aabify/shared';
import { emailApi } from '../api/email';
import { isApiRequestError } from '../api/client';
import { Loading } from '../components/Loading';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { SubmitButton } from '../components/SubmitButton';
import type { LoginEntryState } from './LoginPage';

interface ResetValues {
  token: string;
  password: string;
  confirmPassword: string;
}

/** What the page knows of its link: still being asked, usable, or dead (used, expired, unknown). */
type LinkState = 'checking' | 'valid' | 'invalid';

/**
 * Asks the server once whether the link still works, so a dead link is said when the page opens
 * rather than after two passwords were typed. A check that could not be made (network) leaves the
 * form: submitting then gives the server's own answer.
 */
function useResetLinkState(token: string): LinkState {
  const [state, setState] = useState<LinkState>(token ? 'checking' : 'invalid');
  useEffect(() => {
    if (!token) return;
    let live = true;
    emailApi.resetLinkStatus(token).then(
      (res) => live && setState(res.valid ? 'valid' : 'invalid'),
      (e: unknown) => live && setState(isApiRequestError(e) && e.status === 400 ? 'invalid' : 'valid'),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return state;
}

function DeadLink({ message }: { message: string }) {
  return (
    <Alert variant="danger" data-testid="reset-link-error">
      {message} <Link to="/forgot-password">Pedir um novo link</Link>
    </Alert>
  );
}

/** /reset-password?token=… — the link of the e-mail: a new password, then signed in. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const linkState = useResetLinkState(token);
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const submit = async (values: ResetValues, helpers: FormikHelpers<ResetValues>) => {
    try {
      const res = await emailApi.resetPassword({ token: values.token, password: values.password, confirmPassword: values.confirmPassword });
      toast.success(res.message);
      // With two-factor sign-in the link does not sign in: the code is asked on /login.
      if (isTwoFactorChallenge(res)) return navigate('/login', { replace: true, state: { challenge: res } satisfies LoginEntryState });
      signIn(res.token, res.user);
      navigate('/dashboard', { replace: true });
    } catch (e) {
      showServerErrors(e, helpers, ['token', 'password', 'confirmPassword'], 'Erro ao criar nova senha');
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Criar nova senha" subtitle="Escolha a nova senha da sua conta. As outras sessões serão encerradas.">
      {linkState === 'checking' && <Loading />}
      {linkState === 'invalid' && <DeadLink message={token ? EMAIL_MESSAGES.resetLinkInvalid : EMAIL_MESSAGES.linkTokenRequired} />}
      {linkState === 'valid' && (
        <Formik<ResetValues>
          initialValues={{ token, password: '', confirmPassword: '' }}
          validationSchema={resetPasswordFormSchema}
          validateOnBlur={false}
          onSubmit={submit}
        >
          {({ isSubmitting, errors }) => (
            <FormikForm noValidate>
              {errors.token && <DeadLink message={errors.token} />}
              <FormField name="password" label="Nova senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} autoFocus />
              <FormField name="confirmPassword" label="Confirmar nova senha" type="password" autoComplete="new-password" />
              <SubmitButton busy={isSubmitting} className="w-100">
                Salvar nova senha
              </SubmitButton>
            </FormikForm>
          )}
        </Formik>
      )}
      <p className="mt-3 mb-0 text-center">
        <Link to="/login">Voltar para o login</Link>
      </p>
    </AuthLayout>
  );
}
