import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { EMAIL_MESSAGES } from '@aabify/shared';
import { emailApi } from '../api/email';
import { useSession } from '../stores/session';
import { ResendVerificationButton } from './ResendVerificationButton';

/**
 * Over every signed-in screen while the address is not confirmed and the service requires it
 * (accounts.requireVerifiedEmail): what is blocked and a 'Reenviar e-mail' button.
 */
export function VerifyEmailBanner() {
  const user = useSession((s) => s.user);
  const [required, setRequired] = useState(false);
  const unverified = Boolean(user && user.role !== 'admin' && !user.emailVerified);
  useEffect(() => {
    if (!unverified) return;
    let live = true;
    emailApi.status().then(
      (s) => live && setRequired(s.verificationRequired && !s.emailVerified),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [unverified]);
  if (!unverified || !required || !user) return null;
  return (
    <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2" data-testid="verify-email-banner">
      <span className="flex-grow-1">
        {EMAIL_MESSAGES.verifyBanner} Enviamos o link para <strong>{user.email}</strong>.
      </span>
      <ResendVerificationButton />
    </Alert>
  );
}
