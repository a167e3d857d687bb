import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useNavigate } from 'react-router-dom';
import { ACCOUNT_MESSAGES, registerFormSchema } from '@aabify/shared';
import { authApi } from '../api/auth';
import { isApiRequestError } from '../api/client';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';

interface RegisterValues {
  email: string;
  password: string;
  confirmPassword: string;
}

export function RegisterPage() {
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const submit = async (values: RegisterValues, helpers: FormikHelpers<RegisterValues>) => {
    try {
      const res = await authApi.register({ email: values.email.trim(), password: values.password });
      signIn(res.token, res.user);
      toast.success(ACCOUNT_MESSAGES.registerSuccess);
      navigate('/dashboard', { replace: true });
    } catch (e) {
      if (isApiRequestError(e) && e.fields) helpers.setErrors(e.fields);
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Criar Conta" subtitle="Cadastre-se para converter seus APKs em AAB.">
      <Formik<RegisterValues>
        initialValues={{ email: '', password: '', confirmPassword: '' }}
        validationSchema={registerFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <FormField name="email" label="Email" type="email" autoComplete="email" autoFocus />
            <FormField name="password" label="Senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
            <FormField name="confirmPassword" label="Confirmar senha" type="password" autoComplete="new-password" />
            <Button type="submit" className="w-100" disabled={isSubmitting}>
              {isSubmitting && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              Criar Conta
            </Button>
          </FormikForm>
        )}
      </Formik>
      <p className="mt-3 mb-0 text-center">
        Já tem uma conta? <Link to="/login">Entrar</Link>
      </p>
    </AuthLayout>
  );
}
