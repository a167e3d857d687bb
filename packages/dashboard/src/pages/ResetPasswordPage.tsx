import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, isTwoFactorChallenge, resetPasswordFormSchema } from '@aabify/shared';
import { emailApi } from '../api/email';
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

/** /reset-password?token=… — the link of the e-mail: a new password, then signed in. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
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
      <Formik<ResetValues>
        initialValues={{ token, password: '', confirmPassword: '' }}
        validationSchema={resetPasswordFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting, errors }) => (
          <FormikForm noValidate>
            {errors.token && (
              <Alert variant="danger" data-testid="reset-link-error">
                {errors.token} <Link to="/forgot-password">Pedir um novo link</Link>
              </Alert>
            )}
            {!token && <Alert variant="warning">{EMAIL_MESSAGES.linkTokenRequired}</Alert>}
            <FormField name="password" label="Nova senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} autoFocus />
            <FormField name="confirmPassword" label="Confirmar nova senha" type="password" autoComplete="new-password" />
            <SubmitButton busy={isSubmitting} className="w-100">
              Salvar nova senha
            </SubmitButton>
          </FormikForm>
        )}
      </Formik>
      <p className="mt-3 mb-0 text-center">
        <Link to="/login">Voltar para o login</Link>
      </p>
    </AuthLayout>
  );
}
