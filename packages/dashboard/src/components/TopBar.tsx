import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Container from 'react-bootstrap/Container';
import Dropdown from 'react-bootstrap/Dropdown';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { ROLE_LABELS, isAdmin, useSession } from '../stores/session';
import { signOutEverywhere } from '../stores/signOut';
import { ChangePasswordModal } from './ChangePasswordModal';
import { ThemeToggle } from './ThemeToggle';

/** Dashboard and Converter links, theme toggle, email, role label, and the account menu ('Minhas compras' for users). */
export function TopBar() {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const [changing, setChanging] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const close = () => setExpanded(false);
  return (
    <>
      <Navbar expand="md" className="border-bottom mb-4 bg-body-tertiary" expanded={expanded} onToggle={setExpanded}>
        <Container>
          <Navbar.Brand as={Link} to="/" onClick={close} className="fw-bold">
            aab<span className="text-primary">ify</span>
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="main-nav" aria-label="Abrir menu de navegação" />
          <Navbar.Collapse id="main-nav">
            <Nav className="me-auto" as="ul">
              <Nav.Item as="li">
                <Nav.Link as={NavLink} to="/dashboard" onClick={close}>
                  Dashboard
                </Nav.Link>
              </Nav.Item>
              <Nav.Item as="li">
                <Nav.Link as={NavLink} to="/converter" onClick={close}>
                  Converter
                </Nav.Link>
              </Nav.Item>
            </Nav>
            <div className="d-flex flex-wrap align-items-center gap-2 py-2 py-md-0">
              <ThemeToggle />
              {user && (
                <>
                  <span className="text-truncate small" style={{ maxWidth: 220 }} data-testid="topbar-email" title={user.email}>
                    {user.email}
                  </span>
                  <Badge bg={user.role === 'admin' ? 'danger' : 'secondary'} data-testid="topbar-role">
                    {ROLE_LABELS[user.role]}
                  </Badge>
                </>
              )}
              <Dropdown align="end">
                <Dropdown.Toggle variant="outline-secondary" size="sm" id="account-menu" aria-label="Menu da conta">
                  Conta
                </Dropdown.Toggle>
                <Dropdown.Menu>
                  <Dropdown.Item as="button" onClick={() => { close(); setChanging(true); }}>
                    Alterar Senha
                  </Dropdown.Item>
                  <Dropdown.Item as={Link} to="/account/keystore" onClick={close}>
                    Chave de upload
                  </Dropdown.Item>
                  {!isAdmin(user) && (
                    <Dropdown.Item as={Link} to="/purchases" onClick={close}>
                      Minhas compras
                    </Dropdown.Item>
                  )}
                  <Dropdown.Divider />
                  <Dropdown.Item
                    as="button"
                    onClick={() => {
                      close();
                      signOutEverywhere();
                      navigate('/login', { replace: true });
                    }}
                  >
                    Sair
                  </Dropdown.Item>
                </Dropdown.Menu>
              </Dropdown>
            </div>
          </Navbar.Collapse>
        </Container>
      </Navbar>
      <ChangePasswordModal show={changing} onHide={() => setChanging(false)} />
    </>
  );
}
