/**
 * /account/security — Conta › Segurança: two-factor sign-in (enrol, recovery codes, disable)
 * and "Sessões ativas" (docs/accounts.md). A session limited to two-factor enrolment (an
 * administrator where it is required) lands here and sees only the enrolment.
 */
import { useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../components/PageHeader';
import { homePath } from '../../components/guards';
import { SECURITY_PAGE_TEXTS } from '../../lib/security';
import { useSession } from '../../stores/session';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';

export default function SecurityPage() {
  usePageTitle(SECURITY_PAGE_TEXTS.title);
  const restricted = useSession((s) => s.user?.twoFactorSetupRequired === true);
  const navigate = useNavigate();
  // Enrolment (or turning it off) changes what this session may do: the user is read again.
  const onChanged = () => {
    void useSession
      .getState()
      .refreshUser()
      .then((user) => {
        if (restricted && user && !user.twoFactorSetupRequired) navigate(homePath(user.role), { replace: true });
      });
  };
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }} data-testid="security-page">
      <h1 className="h3 mb-3">{SECURITY_PAGE_TEXTS.title}</h1>
      <TwoFactorSection onChanged={onChanged} />
      {!restricted && <SessionsSection />}
    </div>
  );
}
