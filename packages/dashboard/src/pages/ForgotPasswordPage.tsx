import { useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { forgotPasswordSchema, type ForgotPasswordResponse } from '@aabify/shared';
import { emailApi } from '../api/email';
import { showServerErrors } from '../lib/formErrors';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { SubmitButton } from '../components/SubmitButton';
import { SupportContact } from '../components/SupportContact';

/**
 * 'Esqueci minha senha': the same answer whether or not the account exists. On a server that
 * delivers no e-mail the answer says so, and the support contact is the way back in.
 */
export default function ForgotPasswordPage() {
  const [sent, setSent] = useState<ForgotPasswordResponse | null>(null);
  const submit = async (values: { email: string }, helpers: FormikHelpers<{ email: string }>) => {
    try {
      setSent(await emailApi.forgotPassword(values.email.trim()));
    } catch (e) {
      showServerErrors(e, helpers, ['email'], 'Erro ao pedir nova senha');
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Esqueci minha senha" subtitle="Informe o e-mail da sua conta: enviaremos um link para criar uma nova senha.">
      {sent?.emailDelivery === false ? (
        <>
          <Alert variant="warning" data-testid="forgot-no-delivery">
            {sent.message}
          </Alert>
          <SupportContact />
        </>
      ) : sent ? (
        <Alert variant="success" data-testid="forgot-sent">
          {sent.message}
        </Alert>
      ) : (
        <Formik initialValues={{ email: '' }} validationSchema={forgotPasswordSchema} validateOnBlur={false} onSubmit={submit}>
          {({ isSubmitting }) => (
            <FormikForm noValidate>
              <FormField name="email" label="E-mail" type="email" autoComplete="email" autoFocus />
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
