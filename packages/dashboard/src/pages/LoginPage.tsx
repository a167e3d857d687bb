import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import { Link, useNavigate } from 'react-router-dom';
import { ACCOUNT_MESSAGES, loginSchema } from '@aabify/shared';
import { authApi } from '../api/auth';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { SubmitButton } from '../components/SubmitButton';

interface LoginValues {
  email: string;
  password: string;
}

export function LoginPage() {
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const submit = async (values: LoginValues, helpers: FormikHelpers<LoginValues>) => {
    try {
      const res = await authApi.login({ email: values.email.trim(), password: values.password });
      signIn(res.token, res.user);
      toast.success(ACCOUNT_MESSAGES.loginSuccess);
      navigate('/dashboard', { replace: true });
    } catch (e) {
      // 'Email ou senha incorretos.' under the password, a disabled account under the email.
      showServerErrors(e, helpers, ['email', 'password'], 'Erro ao entrar');
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Entrar" subtitle="Acesse sua conta para converter APKs em AAB.">
      <Formik<LoginValues> initialValues={{ email: '', password: '' }} validationSchema={loginSchema}
        validateOnBlur={false} onSubmit={submit}>
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <FormField name="email" label="Email" type="email" autoComplete="email" autoFocus />
            <FormField name="password" label="Senha" type="password" autoComplete="current-password" />
            <p className="text-end small mb-3">
              <Link to="/forgot-password">Esqueci minha senha</Link>
            </p>
            <SubmitButton busy={isSubmitting} className="w-100">
              Entrar
            </SubmitButton>
          </FormikForm>
        )}
      </Formik>
      <p className="mt-3 mb-0 text-center">
        Não tem conta? <Link to="/register">Cadastre-se</Link>
      </p>
    </AuthLayout>
  );
}
