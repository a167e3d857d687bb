import { lazy, Suspense, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Container from 'react-bootstrap/Container';
import Dropdown from 'react-bootstrap/Dropdown';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { givenName } from '../lib/userName';
import { ACCOUNT_MENU, MAIN_NAV, takesWholeWidth, visibleTo, type AccountAction } from '../navigation';
import { ROLE_LABELS, useSession } from '../stores/session';
import { signOutEverywhere } from '../stores/signOut';
import { authApi } from '../api/auth';
import { toast } from '../stores/toasts';
import { Icon } from './Icon';
import { ThemeToggle } from './ThemeToggle';

// Its form code (formik, yup) loads when it is first opened, not with every screen.
const ChangePasswordModal = lazy(() => import('./ChangePasswordModal').then((m) => ({ default: m.ChangePasswordModal })));

/** Main links, theme switch, the user's name (or email), role label, and the data-driven account menu. */
export function TopBar() {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const wide = takesWholeWidth(useLocation().pathname);
  const [changing, setChanging] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const close = () => setExpanded(false);
  const actions: Record<AccountAction, () => void> = {
    changePassword: () => setChanging(true),
    signOut: () => {
      // The token goes with the request before it is forgotten here; nobody waits for the answer.
      void authApi.logout().catch(() => undefined);
      signOutEverywhere();
      navigate('/login', { replace: true });
    },
  };
  /** Every session of the account ends on the server; then this browser signs out too. */
  const signOutOfEveryDevice = () => {
    authApi.logoutAll().then(
      (res) => {
        signOutEverywhere();
        toast.success(res.message);
        navigate('/login', { replace: true });
      },
      () => undefined,
    );
  };
  const menu = visibleTo(ACCOUNT_MENU, user);
  return (
    <>
      <Navbar expand="md" className="border-bottom mb-4 bg-body-tertiary topbar" expanded={expanded} onToggle={setExpanded} sticky="top">
        <Container fluid={wide ? 'xxl' : undefined}>
          <Navbar.Brand as={Link} to="/" onClick={close} className="fw-bold">
            aab<span className="text-primary-emphasis">ify</span>
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="main-nav" aria-label="Abrir menu de navegação" />
          <Navbar.Collapse id="main-nav">
            <Nav className="me-auto" as="ul">
              {visibleTo(MAIN_NAV, user).map((e) => (
                <Nav.Item as="li" key={e.to}>
                  <Nav.Link as={NavLink} to={e.to} onClick={close} className="d-flex align-items-center gap-1">
                    <Icon name={e.icon} />
                    {e.label}
                  </Nav.Link>
                </Nav.Item>
              ))}
            </Nav>
            <div className="d-flex flex-wrap align-items-center gap-2 py-2 py-md-0 min-w-0">
              <ThemeToggle />
              {user && (
                <>
                  {givenName(user) && (
                    <span className="text-truncate small text-body-secondary topbar-user" data-testid="topbar-name" title={givenName(user) ?? undefined}>
                      {givenName(user)}
                    </span>
                  )}
                  <span className="text-truncate small topbar-user" data-testid="topbar-email" title={user.email}>
                    {user.email}
                  </span>
                  <Badge bg={user.role === 'admin' ? 'danger' : 'secondary'} data-testid="topbar-role">
                    {ROLE_LABELS[user.role]}
                  </Badge>
                </>
              )}
              <Dropdown align="end">
                <Dropdown.Toggle variant="outline-secondary" size="sm" id="account-menu" aria-label="Menu da conta">
                  <Icon name="person-circle" className="me-1" />
                  Conta
                </Dropdown.Toggle>
                <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
                  {menu.map((e) =>
                    e.kind === 'link' ? (
                      <Dropdown.Item key={e.to} as={Link} to={e.to} onClick={close}>
                        <Icon name={e.icon} className="me-2" />
                        {e.label}
                      </Dropdown.Item>
                    ) : (
                      <Dropdown.Item
                        key={e.action}
                        as="button"
                        onClick={() => { close(); actions[e.action](); }}
                      >
                        <Icon name={e.icon} className="me-2" />
                        {e.label}
                      </Dropdown.Item>
                    ),
                  )}
                  <Dropdown.Divider />
                  <Dropdown.Item as="button" onClick={() => { close(); actions.signOut(); }}>
                    <Icon name="box-arrow-right" className="me-2" />
                    Sair
                  </Dropdown.Item>
                  <Dropdown.Item as="button" onClick={() => { close(); signOutOfEveryDevice(); }}>
                    <Icon name="layers" className="me-2" />
                    Sair de todos os dispositivos
                  </Dropdown.Item>
                </Dropdown.Menu>
              </Dropdown>
            </div>
          </Navbar.Collapse>
        </Container>
      </Navbar>
      {changing && (
        <Suspense fallback={null}>
          <ChangePasswordModal show onHide={() => setChanging(false)} />
        </Suspense>
      )}
    </>
  );
}
