import { useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { SECURITY_MESSAGES, reauthCodeFormSchema, reauthPasswordFormSchema } from '@aabify/shared';
import { securityApi } from '../api/security';
import { showServerErrors } from '../lib/formErrors';
import { useReauth } from '../stores/reauth';
import { useSession } from '../stores/session';
import { FormField } from './FormField';
import { SubmitButton } from './SubmitButton';

interface Values {
  password: string;
  code: string;
}

/**
 * Asked when a sensitive change (API tokens, keys, two-factor settings) comes more than 10
 * minutes after the session last proved the password: the password — or, with two-factor
 * sign-in, a code of the app — then the change goes through (stores/reauth.ts).
 */
export function ReauthModal() {
  const open = useReauth((s) => s.open);
  const finish = useReauth((s) => s.finish);
  const twoFactor = useSession((s) => s.user?.twoFactorEnabled === true);
  const [withCode, setWithCode] = useState(false);
  const submit = async (values: Values, helpers: FormikHelpers<Values>) => {
    try {
      await securityApi.reauth(withCode ? { code: values.code.trim() } : { password: values.password });
      helpers.resetForm();
      finish(true);
    } catch (e) {
      showServerErrors(e, helpers, ['password', 'code'], SECURITY_MESSAGES.reauthRequired);
      helpers.setSubmitting(false);
    }
  };
  return (
    <Modal show={open} onHide={() => finish(false)} centered aria-labelledby="reauth-title" data-testid="reauth-modal">
      <Formik<Values>
        key={withCode ? 'code' : 'password'}
        initialValues={{ password: '', code: '' }}
        validationSchema={withCode ? reauthCodeFormSchema : reauthPasswordFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <Modal.Header closeButton closeLabel="Fechar">
              <Modal.Title id="reauth-title" as="h2" className="h5">
                Confirme sua identidade
              </Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <p>{SECURITY_MESSAGES.reauthRequired}</p>
              {withCode ? (
                <FormField name="code" label="Código de verificação" autoComplete="one-time-code" autoFocus />
              ) : (
                <FormField name="password" label="Senha" type="password" autoComplete="current-password" autoFocus />
              )}
              {twoFactor && (
                <Button variant="link" className="p-0" onClick={() => setWithCode((v) => !v)}>
                  {withCode ? 'Usar a senha' : 'Usar um código do aplicativo'}
                </Button>
              )}
            </Modal.Body>
            <Modal.Footer>
              <Button variant="secondary" onClick={() => finish(false)}>
                Cancelar
              </Button>
              <SubmitButton busy={isSubmitting} data-testid="reauth-submit">
                Confirmar
              </SubmitButton>
            </Modal.Footer>
          </FormikForm>
        )}
      </Formik>
    </Modal>
  );
}
