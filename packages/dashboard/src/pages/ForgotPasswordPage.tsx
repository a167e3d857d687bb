import { useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { forgotPasswordSchema } from '@aabify/shared';
import { emailApi } from '../api/email';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';

/** 'Esqueci minha senha': the same answer whether or not the account exists. */
export default function ForgotPasswordPage() {
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (values: { email: string }, helpers: FormikHelpers<{ email: string }>) => {
    try {
      const res = await emailApi.forgotPassword(values.email.trim());
      setSent(res.message);
    } catch (e) {
      showServerErrors(e, helpers, ['email'], 'Erro ao pedir nova senha');
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Esqueci minha senha" subtitle="Informe o e-mail da sua conta: enviaremos um link para criar uma nova senha.">
      {sent ? (
        <Alert variant="success" data-testid="forgot-sent">
          {sent}
        </Alert>
      ) : (
        <Formik initialValues={{ email: '' }} validationSchema={forgotPasswordSchema} validateOnBlur={false} onSubmit={submit}>
          {({ isSubmitting }) => (
            <FormikForm noValidate>
              <FormField name="email" label="Email" type="email" autoComplete="email" autoFocus />
              <SubmitButton busy={isSubmitting} className="w-100">
                Enviar link
              </SubmitButton>
            </FormikForm>
          )}
        </Formik>
      )}
      <p className="mt-3 mb-0 text-center">
        Lembrou a senha? <Link to="/login">Entrar</Link>
      </p>
    </AuthLayout>
  );
}
