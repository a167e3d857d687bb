/**
 * /confirm-email-change?token=… — the link sent to a new address (Conta › Perfil): following it
 * makes that address the account's e-mail, signed in here or not.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useSearchParams } from 'react-router-dom';
import { EMAIL_MESSAGES } from '@aabify/shared';
import { emailApi } from '../api/email';
import { isApiRequestError } from '../api/client';
import { AuthLayout } from '../components/AuthLayout';
import { Loading } from '../components/Loading';
import { useSession } from '../stores/session';

type State = { kind: 'checking' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

export default function ConfirmEmailChangePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const signedIn = useSession((s) => Boolean(s.token));
  const [state, setState] = useState<State>(token ? { kind: 'checking' } : { kind: 'failed', message: EMAIL_MESSAGES.linkTokenRequired });
  useEffect(() => {
    if (!token) return;
    let live = true;
    emailApi.confirmEmailChange(token).then(
      (res) => {
        if (!live) return;
        setState({ kind: 'done', message: res.message });
        // This browser's session shows the new address at once.
        if (useSession.getState().token) void useSession.getState().refreshUser();
      },
      (e: unknown) => live && setState({ kind: 'failed', message: isApiRequestError(e) && e.serverMessage ? e.serverMessage : EMAIL_MESSAGES.emailChangeLinkInvalid }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <AuthLayout title="Confirmar novo e-mail">
      {state.kind === 'checking' && <Loading />}
      {state.kind === 'done' && (
        <Alert variant="success" data-testid="email-change-done">
          {state.message}
        </Alert>
      )}
      {state.kind === 'failed' && (
        <Alert variant="danger" data-testid="email-change-failed">
          {state.message}
        </Alert>
      )}
      <p className="mt-3 mb-0 text-center">{signedIn ? <Link to="/account/profile">Abrir Conta › Perfil</Link> : <Link to="/login">Entrar</Link>}</p>
    </AuthLayout>
  );
}
