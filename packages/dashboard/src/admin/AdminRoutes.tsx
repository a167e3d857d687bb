/**
 * The admin screens: a lazily loaded chunk of their own (App.tsx imports this file with
 * React.lazy), with the admin sidebar of spec plans-payments-admin §2.1 and one file per
 * screen of §2.4–2.11.
 */
import Col from 'react-bootstrap/Col';
import Nav from 'react-bootstrap/Nav';
import Row from 'react-bootstrap/Row';
import { NavLink, Navigate, Route, Routes } from 'react-router-dom';
import AdminDashboardPage from './AdminDashboardPage';
import AdminsPage from './AdminsPage';
import BulkConverterPage from './BulkConverterPage';
import ConversionsPage from './ConversionsPage';
import PlansAdminPage from './plans/PlansAdminPage';
import PurchasesPage from './PurchasesPage';
import QueueSystemPage from './QueueSystem';
import SettingsPage from './SettingsPage';
import UsersPage from './UsersPage';

/** Sidebar of spec §2.1 'Navigation shells', plus 'Compras' (purchases and their approval, docs/admin.md). */
export const ADMIN_LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/users', label: 'Gerenciar Usuários' },
  { to: '/admin/plans', label: 'Gerenciar Planos' },
  { to: '/admin/purchases', label: 'Compras' },
  { to: '/admin/conversions', label: 'Conversões' },
  { to: '/admin/bulk-converter', label: 'Conversão em Massa' },
  { to: '/admin/management', label: 'Gerenciar Admins' },
  { to: '/admin/settings', label: 'Configurações' },
] as const;

function AdminSidebar() {
  return (
    <Nav as="nav" aria-label="Administração" className="flex-md-column nav-pills gap-1 mb-3" data-testid="admin-sidebar">
      {ADMIN_LINKS.map((l) => (
        <Nav.Link key={l.to} as={NavLink} to={l.to} end={'end' in l ? l.end : false}>
          {l.label}
        </Nav.Link>
      ))}
    </Nav>
  );
}

export default function AdminRoutes() {
  return (
    <Row>
      <Col md={3} lg={2}>
        <AdminSidebar />
      </Col>
      <Col md={9} lg={10} data-testid="admin-home">
        <Routes>
          <Route index element={<AdminDashboardPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="plans" element={<PlansAdminPage />} />
          <Route path="purchases" element={<PurchasesPage />} />
          <Route path="conversions" element={<ConversionsPage />} />
          <Route path="bulk-converter" element={<BulkConverterPage />} />
          <Route path="management" element={<AdminsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="system" element={<QueueSystemPage />} />
          <Route path="queue" element={<QueueSystemPage />} />
          <Route path="*" element={<Navigate to="/admin" replace />} />
        </Routes>
      </Col>
    </Row>
  );
}
