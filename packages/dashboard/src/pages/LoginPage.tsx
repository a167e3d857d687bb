import { useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ACCOUNT_MESSAGES, isTwoFactorChallenge, loginSchema, type AuthResponse, type TwoFactorChallengeResponse } from '@aabify/shared';
import { authApi } from '../api/auth';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { TwoFactorStep } from '../components/TwoFactorStep';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { SubmitButton } from '../components/SubmitButton';

interface LoginValues {
  email: string;
  password: string;
}

/** State that opens /login at the code step (an e-mailed link proved the password already). */
export interface LoginEntryState {
  challenge?: TwoFactorChallengeResponse;
}

export function LoginPage() {
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const entry = useLocation().state as LoginEntryState | null;
  // After the password, on an account with two-factor sign-in: the code step.
  const [challenge, setChallenge] = useState<TwoFactorChallengeResponse | null>(entry?.challenge && isTwoFactorChallenge(entry.challenge) ? entry.challenge : null);
  const signedIn = (res: AuthResponse) => {
    signIn(res.token, res.user);
    toast.success(ACCOUNT_MESSAGES.loginSuccess);
    navigate(res.user.twoFactorSetupRequired ? '/account/security' : '/dashboard', { replace: true });
  };
  const submit = async (values: LoginValues, helpers: FormikHelpers<LoginValues>) => {
    try {
      const res = await authApi.login({ email: values.email.trim(), password: values.password });
      if (isTwoFactorChallenge(res)) setChallenge(res);
      else signedIn(res);
    } catch (e) {
      // 'Email ou senha incorretos.' under the password, a disabled account under the email.
      showServerErrors(e, helpers, ['email', 'password'], 'Erro ao entrar');
      helpers.setSubmitting(false);
    }
  };
  if (challenge) {
    return (
      <AuthLayout title="Verificação em duas etapas" subtitle="Sua conta pede um código além da senha.">
        <TwoFactorStep challenge={challenge} onSignedIn={signedIn} onRestart={() => setChallenge(null)} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Entrar" subtitle="Acesse sua conta para converter APKs em AAB.">
      <Formik<LoginValues> initialValues={{ email: '', password: '' }} validationSchema={loginSchema}
        validateOnBlur={false} onSubmit={submit}>
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <FormField name="email" label="E-mail" type="email" autoComplete="email" autoFocus />
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
