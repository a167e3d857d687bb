import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { emailApi } from '../api/email';
import { toast } from '../stores/toasts';

/**
 * 'Reenviar e-mail': sends a new confirmation link (POST /auth/resend-verification) and says so
 * in a toast. Wherever an unconfirmed address blocks something: the banner over every screen,
 * the refusal of an API token.
 */
export function ResendVerificationButton() {
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      toast.success((await emailApi.resendVerification()).message);
    } catch {
      // The client already showed the refusal (e.g. too many requests).
    } finally {
      setSending(false);
    }
  };
  return (
    <Button size="sm" variant="" className="btn-alert-action" onClick={() => void resend()} disabled={sending}>
      {sending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
      Reenviar e-mail
    </Button>
  );
}
