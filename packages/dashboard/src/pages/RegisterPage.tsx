import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import { Link, useNavigate } from 'react-router-dom';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, registerFormSchema, isTwoFactorChallenge } from '@aabify/shared';
import { authApi } from '../api/auth';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { SubmitButton } from '../components/SubmitButton';

interface RegisterValues {
  email: string;
  password: string;
  confirmPassword: string;
  name: string;
}

export function RegisterPage() {
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const submit = async (values: RegisterValues, helpers: FormikHelpers<RegisterValues>) => {
    try {
      const name = values.name.trim();
      const email = values.email.trim();
      await authApi.register({ email, password: values.password, ...(name ? { name } : {}) });
      // Register answers the same for a taken address (no enumeration); signing in tells them apart.
      const session = await authApi.login({ email, password: values.password }).catch(() => null);
      if (!session || isTwoFactorChallenge(session)) {
        toast.info(EMAIL_MESSAGES.registerCheckInbox);
        navigate('/login', { replace: true });
        return;
      }
      signIn(session.token, session.user);
      toast.success(ACCOUNT_MESSAGES.registerSuccess);
      navigate('/dashboard', { replace: true });
    } catch (e) {
      showServerErrors(e, helpers, ['name', 'email', 'password', 'confirmPassword'], 'Erro ao criar conta');
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Criar Conta" subtitle="Cadastre-se para converter seus APKs em AAB.">
      <Formik<RegisterValues>
        initialValues={{ name: '', email: '', password: '', confirmPassword: '' }}
        validationSchema={registerFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <FormField name="name" label="Nome (opcional)" autoComplete="name" helper="Como você quer ser chamado no painel" autoFocus />
            <FormField name="email" label="Email" type="email" autoComplete="email" />
            <FormField name="password" label="Senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
            <FormField name="confirmPassword" label="Confirmar senha" type="password" autoComplete="new-password" />
            <SubmitButton busy={isSubmitting} className="w-100">
              Criar Conta
            </SubmitButton>
          </FormikForm>
        )}
      </Formik>
      <p className="mt-3 mb-0 text-center">
        Já tem uma conta? <Link to="/login">Entrar</Link>
      </p>
    </AuthLayout>
  );
}
