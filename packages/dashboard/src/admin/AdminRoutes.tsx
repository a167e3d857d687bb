/**
 * The admin screens: a lazily loaded chunk of their own (App.tsx imports this file with
 * React.lazy). Placeholder home and sidebar for now; the admin screens of spec
 * plans-payments-admin §2.4–2.11 are built here, one file per screen, each added to ADMIN_LINKS
 * and to the routes below.
 */
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Nav from 'react-bootstrap/Nav';
import Row from 'react-bootstrap/Row';
import { NavLink, Route, Routes } from 'react-router-dom';
import { useSession } from '../stores/session';

/** Sidebar of spec §2.1 'Navigation shells'. */
export const ADMIN_LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/users', label: 'Gerenciar Usuários' },
  { to: '/admin/plans', label: 'Gerenciar Planos' },
  { to: '/admin/conversions', label: 'Conversões' },
  { to: '/admin/bulk-converter', label: 'Conversão em Massa' },
  { to: '/admin/management', label: 'Gerenciar Admins' },
  { to: '/admin/settings', label: 'Configurações' },
] as const;

function AdminSidebar() {
  return (
    <Nav as="nav" aria-label="Administração" className="flex-md-column nav-pills gap-1 mb-3">
      {ADMIN_LINKS.map((l) => (
        <Nav.Link key={l.to} as={NavLink} to={l.to} end={'end' in l ? l.end : false}>
          {l.label}
        </Nav.Link>
      ))}
    </Nav>
  );
}

function AdminHome() {
  const user = useSession((s) => s.user);
  return (
    <>
      <h1 className="h3">Painel Administrativo</h1>
      <p className="text-body-secondary">Bem-vindo, {user?.email}. Gerencie usuários, planos, conversões e configurações.</p>
      <Card data-testid="admin-home">
        <Card.Body>As telas de administração estão sendo construídas.</Card.Body>
      </Card>
    </>
  );
}

function AdminPending({ title }: { title: string }) {
  return (
    <>
      <h1 className="h3">{title}</h1>
      <p className="text-body-secondary">Em construção.</p>
    </>
  );
}

export default function AdminRoutes() {
  return (
    <Row>
      <Col md={3} lg={2}>
        <AdminSidebar />
      </Col>
      <Col md={9} lg={10}>
        <Routes>
          <Route index element={<AdminHome />} />
          {ADMIN_LINKS.slice(1).map((l) => (
            <Route key={l.to} path={l.to.replace('/admin/', '')} element={<AdminPending title={l.label} />} />
          ))}
          <Route path="*" element={<AdminHome />} />
        </Routes>
      </Col>
    </Row>
  );
}
