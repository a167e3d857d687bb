import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useSearchParams } from 'react-router-dom';
import { EMAIL_MESSAGES } from '@aabify/shared';
import { emailApi } from '../api/email';
import { isApiRequestError } from '../api/client';
import { AuthLayout } from '../components/AuthLayout';
import { useSession } from '../stores/session';

type State = { kind: 'checking' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** /verify-email?token=… — the confirmation link; works signed in or not. */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const signedIn = useSession((s) => Boolean(s.token));
  const [state, setState] = useState<State>({ kind: 'checking' });
  const sent = useRef(false);
  useEffect(() => {
    // Once: the link is single-use, and React may run effects twice in development.
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setState({ kind: 'failed', message: EMAIL_MESSAGES.linkTokenRequired });
      return;
    }
    emailApi.verifyEmail(token).then(
      (res) => {
        setState({ kind: 'done', message: res.message });
        if (useSession.getState().token) void useSession.getState().refreshUser();
      },
      (e: unknown) => setState({ kind: 'failed', message: isApiRequestError(e) && e.serverMessage ? e.serverMessage : EMAIL_MESSAGES.verifyLinkInvalid }),
    );
  }, [token]);
  return (
    <AuthLayout title="Confirmação de e-mail">
      {state.kind === 'checking' && (
        <p className="d-flex align-items-center gap-2 mb-0">
          <Spinner size="sm" aria-hidden="true" /> Confirmando…
        </p>
      )}
      {state.kind === 'done' && (
        <Alert variant="success" data-testid="verify-result">
          {state.message}
        </Alert>
      )}
      {state.kind === 'failed' && (
        <Alert variant="danger" data-testid="verify-result">
          {state.message}
        </Alert>
      )}
      <p className="mt-3 mb-0 text-center">
        <Link to={signedIn ? '/dashboard' : '/login'}>{signedIn ? 'Ir para o painel' : 'Entrar'}</Link>
      </p>
    </AuthLayout>
  );
}
