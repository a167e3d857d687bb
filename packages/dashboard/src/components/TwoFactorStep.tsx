import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Button from 'react-bootstrap/Button';
import { SECURITY_MESSAGES, loginTwoFactorSchema, type AuthResponse, type TwoFactorChallengeResponse } from '@aabify/shared';
import { securityApi } from '../api/security';
import { isApiRequestError } from '../api/client';
import { showServerErrors } from '../lib/formErrors';
import { FormField } from './FormField';
import { SubmitButton } from './SubmitButton';

interface Values {
  challenge: string;
  code: string;
}

/**
 * The second step of a sign-in on an account with two-factor sign-in (after the password, or an
 * e-mailed link): a code of the authenticator app or one of the recovery codes. No session
 * exists before it; `onSignedIn` gets the one the code opens.
 */
export function TwoFactorStep(props: { challenge: TwoFactorChallengeResponse; onSignedIn(session: AuthResponse): void; onRestart(): void }) {
  const submit = async (values: Values, helpers: FormikHelpers<Values>) => {
    try {
      props.onSignedIn(await securityApi.loginTwoFactor({ challenge: values.challenge, code: values.code.trim() }));
    } catch (e) {
      // An expired or spent challenge: back to the password.
      if (isApiRequestError(e) && e.code === 'TWO_FACTOR_CHALLENGE_INVALID') props.onRestart();
      showServerErrors(e, helpers, ['code'], SECURITY_MESSAGES.twoFactorCodeInvalid);
      helpers.setSubmitting(false);
    }
  };
  return (
    <Formik<Values> initialValues={{ challenge: props.challenge.challenge, code: '' }} validationSchema={loginTwoFactorSchema} validateOnBlur={false} onSubmit={submit}>
      {({ isSubmitting }) => (
        <FormikForm noValidate data-testid="two-factor-step">
          <p>{props.challenge.message}</p>
          <FormField
            name="code"
            label="Código de verificação"
            autoComplete="one-time-code"
            helper="6 dígitos do aplicativo, ou um código de recuperação (xxxx-xxxx-xxxx-xxxx)."
            autoFocus
          />
          <SubmitButton busy={isSubmitting} className="w-100" data-testid="two-factor-submit">
            Verificar
          </SubmitButton>
          <Button variant="link" className="w-100 mt-2" onClick={props.onRestart}>
            Voltar e entrar com outra conta
          </Button>
        </FormikForm>
      )}
    </Formik>
  );
}
