import { Form as FormikForm, Formik, useField, type FormikHelpers } from 'formik';
import Form from 'react-bootstrap/Form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, isRegisterSession, registerFormSchema } from '@aabify/shared';
import { authApi } from '../api/auth';
import { isApiRequestError } from '../api/client';
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
  acceptTerms: boolean;
}

/** The acceptance of both documents, each opening in a new tab so the form keeps what was typed. */
function AcceptTermsField() {
  const [field, meta] = useField<boolean>({ name: 'acceptTerms', type: 'checkbox' });
  const invalid = Boolean(meta.touched && meta.error);
  return (
    <Form.Group className="mb-3">
      <Form.Check id="field-acceptTerms">
        <Form.Check.Input name={field.name} checked={Boolean(field.checked)} onChange={field.onChange} onBlur={field.onBlur} type="checkbox" isInvalid={invalid} aria-invalid={invalid} aria-describedby={invalid ? 'field-acceptTerms-error' : undefined} />
        <Form.Check.Label>
          Li e aceito os{' '}
          <a href="/termos" target="_blank" rel="noopener">
            Termos de Uso
          </a>{' '}
          e a{' '}
          <a href="/privacidade" target="_blank" rel="noopener">
            Política de Privacidade
          </a>
        </Form.Check.Label>
        <Form.Control.Feedback type="invalid" id="field-acceptTerms-error" role="alert">
          {meta.error}
        </Form.Control.Feedback>
      </Form.Check>
    </Form.Group>
  );
}

export function RegisterPage() {
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  /** The address was taken: offer signing in or recovering it instead. */
  const [taken, setTaken] = useState(false);
  const submit = async (values: RegisterValues, helpers: FormikHelpers<RegisterValues>) => {
    setTaken(false);
    try {
      const name = values.name.trim();
      const email = values.email.trim();
      const answer = await authApi.register({ email, password: values.password, acceptTerms: values.acceptTerms, ...(name ? { name } : {}) });
      if (!isRegisterSession(answer)) {
        // The operator requires a confirmed e-mail: the next step is in the inbox.
        toast.info(EMAIL_MESSAGES.registerCheckInbox);
        navigate('/login', { replace: true });
        return;
      }
      signIn(answer.token, answer.user);
      toast.success(ACCOUNT_MESSAGES.registerSuccess);
      navigate('/dashboard', { replace: true });
    } catch (e) {
      setTaken(isApiRequestError(e) && e.code === 'EMAIL_TAKEN');
      showServerErrors(e, helpers, ['name', 'email', 'password', 'confirmPassword', 'acceptTerms'], 'Erro ao criar conta');
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Criar Conta" subtitle="Cadastre-se para converter seus APKs em AAB.">
      <Formik<RegisterValues>
        initialValues={{ name: '', email: '', password: '', confirmPassword: '', acceptTerms: false }}
        validationSchema={registerFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <FormField name="name" label="Nome (opcional)" autoComplete="name" helper="Como você quer ser chamado no painel" autoFocus />
            <FormField name="email" label="E-mail" type="email" autoComplete="email" />
            <FormField name="password" label="Senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
            <FormField name="confirmPassword" label="Confirmar senha" type="password" autoComplete="new-password" />
            <AcceptTermsField />
            {taken && (
              <div className="alert alert-info py-2" role="status" data-testid="register-email-taken">
                Já tem conta com este e-mail? <Link to="/login">Entrar</Link> ou <Link to="/forgot-password">recuperar a senha</Link>.
              </div>
            )}
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
