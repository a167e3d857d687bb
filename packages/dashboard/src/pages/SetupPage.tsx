import { Form as FormikForm, Formik, useFormikContext, type FormikHelpers } from 'formik';
import { useEffect, useRef } from 'react';
import { ACCOUNT_MESSAGES, setupFormSchema } from '@aabify/shared';
import { authApi } from '../api/auth';
import { isApiRequestError } from '../api/client';
import { AuthLayout } from '../components/AuthLayout';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { SubmitButton } from '../components/SubmitButton';

export const SETUP_REDIRECT_DELAY_MS = 1000;

/** 'Por favor, corrija os erros no formulário' once per submit attempt that fails validation. */
function InvalidSubmitToast() {
  const { submitCount, isValidating, isSubmitting, isValid } = useFormikContext();
  const shown = useRef(0);
  useEffect(() => {
    if (submitCount > shown.current && !isValidating && !isSubmitting && !isValid) {
      shown.current = submitCount;
      toast.error(ACCOUNT_MESSAGES.formHasErrors);
    }
  }, [submitCount, isValidating, isSubmitting, isValid]);
  return null;
}

interface SetupValues {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** First-run setup: creates the first administrator; shown for every path while required. */
export function SetupPage() {
  const signIn = useSession((s) => s.signIn);
  const submit = async (values: SetupValues, helpers: FormikHelpers<SetupValues>) => {
    try {
      const res = await authApi.initialize({ name: values.name.trim() || ACCOUNT_MESSAGES.setupDefaultName, email: values.email.trim(), password: values.password });
      signIn(res.token, res.user);
      toast.success(ACCOUNT_MESSAGES.setupSuccess, { admin: true });
      setTimeout(() => window.location.assign('/admin'), SETUP_REDIRECT_DELAY_MS);
    } catch (e) {
      if (isApiRequestError(e) && e.fields) helpers.setErrors(e.fields);
      toast.error((isApiRequestError(e) && e.serverMessage) || ACCOUNT_MESSAGES.setupFailed);
      helpers.setSubmitting(false);
    }
  };
  return (
    <AuthLayout title="Configuração Inicial" subtitle="Crie a conta do primeiro administrador do aabify.">
      <Formik<SetupValues>
        initialValues={{ name: ACCOUNT_MESSAGES.setupDefaultName, email: '', password: '', confirmPassword: '' }}
        validationSchema={setupFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <InvalidSubmitToast />
            <FormField name="name" label="Nome" autoComplete="name" />
            <FormField name="email" label="E-mail" type="email" autoComplete="email" autoFocus />
            <FormField name="password" label="Senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
            <FormField name="confirmPassword" label="Confirmar senha" type="password" autoComplete="new-password" />
            <SubmitButton busy={isSubmitting} className="w-100">
              Criar Administrador
            </SubmitButton>
          </FormikForm>
        )}
      </Formik>
    </AuthLayout>
  );
}
