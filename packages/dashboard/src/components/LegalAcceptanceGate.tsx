import { useEffect, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { LEGAL_MESSAGES, type LegalAcceptanceStatus } from '@aabify/shared';
import { authApi } from '../api/auth';
import { legalApi } from '../api/legal';
import { useLegalAcceptance } from '../stores/legal';
import { useSession } from '../stores/session';
import { signOutEverywhere } from '../stores/signOut';
import { toast } from '../stores/toasts';
import { AuthLayout } from './AuthLayout';

/**
 * Between a customer's session and every screen: when the Termos de Uso or the Política de
 * Privacidade changed since the account accepted them (asked when the session starts, or told by
 * a 403 LEGAL_ACCEPTANCE_REQUIRED from any call), the acceptance screen instead of the app.
 */
export function LegalAcceptanceGate({ children }: { children: ReactNode }) {
  const userId = useSession((s) => s.user?.id);
  const required = useLegalAcceptance((s) => s.required);
  const setRequired = useLegalAcceptance((s) => s.setRequired);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    legalApi.acceptanceStatus().then(
      (status) => live && status.required && setRequired(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [userId, setRequired]);
  if (required) return <LegalAcceptanceScreen />;
  return children;
}

function LegalAcceptanceScreen() {
  const setRequired = useLegalAcceptance((s) => s.setRequired);
  const [status, setStatus] = useState<LegalAcceptanceStatus | null>(null);
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void legalApi.acceptanceStatus().then(setStatus, () => undefined);
  }, []);
  const accept = async () => {
    if (!checked) {
      setError(LEGAL_MESSAGES.acceptToContinue);
      return;
    }
    if (!status) return;
    setBusy(true);
    try {
      const answer = await legalApi.accept({ termsVersion: status.current.terms, privacyVersion: status.current.privacy });
      toast.success(answer.message);
      setRequired(false);
    } catch {
      // A newer version appeared meanwhile (409): read the status again.
      void legalApi.acceptanceStatus().then(setStatus, () => undefined);
    } finally {
      setBusy(false);
    }
  };
  const signOut = () => {
    void authApi.logout().catch(() => undefined);
    signOutEverywhere();
  };
  return (
    <AuthLayout title="Termos atualizados" subtitle={LEGAL_MESSAGES.acceptanceRequired}>
      <div data-testid="legal-acceptance">
        <Form.Check
          id="legal-accept"
          className="mb-3"
          isInvalid={Boolean(error)}
          label={
            <>
              Li e aceito os{' '}
              <a href="/termos" target="_blank" rel="noopener">
                Termos de Uso
              </a>{' '}
              e a{' '}
              <a href="/privacidade" target="_blank" rel="noopener">
                Política de Privacidade
              </a>
              {status ? ` (versões ${status.current.terms} e ${status.current.privacy})` : ''}.
            </>
          }
          checked={checked}
          onChange={(e) => {
            setChecked(e.currentTarget.checked);
            setError(null);
          }}
          feedback={error ?? undefined}
          feedbackType="invalid"
        />
        <Button className="w-100" disabled={busy} onClick={() => void accept()}>
          Aceitar e continuar
        </Button>
        <Button variant="link" className="w-100 mt-2" onClick={signOut}>
          Sair
        </Button>
      </div>
    </AuthLayout>
  );
}
