import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { ACCOUNT_MESSAGES, changePasswordFormSchema } from '@aabify/shared';
import { authApi } from '../api/auth';
import { isApiRequestError } from '../api/client';
import { passwordChangeFieldErrors } from '../lib/errors';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { FormField } from './FormField';
import { SubmitButton } from './SubmitButton';

interface Values {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** 'Alterar Senha' of the top bar's menu: own password, field errors beside the fields. */
export function ChangePasswordModal({ show, onHide }: { show: boolean; onHide(): void }) {
  const submit = async (values: Values, helpers: FormikHelpers<Values>) => {
    try {
      const res = await authApi.changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      // The server ends older sessions and hands this one a new token.
      if (res.token && res.user) useSession.getState().signIn(res.token, res.user);
      toast.success(res.message ?? ACCOUNT_MESSAGES.passwordChanged);
      helpers.resetForm();
      onHide();
    } catch (e) {
      if (isApiRequestError(e)) {
        const fields = passwordChangeFieldErrors(e);
        if (Object.keys(fields).length) helpers.setErrors(fields);
        else toast.error(e.serverMessage ?? 'Erro ao alterar senha');
      }
      helpers.setSubmitting(false);
    }
  };
  return (
    <Modal show={show} onHide={onHide} centered aria-labelledby="change-password-title">
      <Formik<Values>
        initialValues={{ currentPassword: '', newPassword: '', confirmPassword: '' }}
        validationSchema={changePasswordFormSchema}
        validateOnBlur={false}
        onSubmit={submit}
      >
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <Modal.Header closeButton closeLabel="Fechar">
              <Modal.Title id="change-password-title" as="h2" className="h5">
                Alterar Senha
              </Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <FormField name="currentPassword" label="Senha atual" type="password" autoComplete="current-password" autoFocus />
              <FormField name="newPassword" label="Nova senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
              <FormField name="confirmPassword" label="Confirmar nova senha" type="password" autoComplete="new-password" />
            </Modal.Body>
            <Modal.Footer>
              <Button variant="secondary" onClick={onHide}>
                Cancelar
              </Button>
              <SubmitButton busy={isSubmitting}>
                Alterar Senha
              </SubmitButton>
            </Modal.Footer>
          </FormikForm>
        )}
      </Formik>
    </Modal>
  );
}
