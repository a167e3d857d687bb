/**
 * The admin screens: a lazily loaded chunk of their own (App.tsx imports this file with
 * React.lazy), with the grouped admin sidebar (src/navigation.ts: ADMIN_NAV) and one file per
 * screen (docs/admin.md "Screens").
 */
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AdminSidebar } from './AdminSidebar';
import { PaymentsUnavailableBanner } from './PaymentsStatus';
import AdminDashboardPage from './AdminDashboardPage';
import AdminsPage from './AdminsPage';
import AuditPage from './AuditPage';
import BulkConverterPage from './BulkConverterPage';
import ConversionsPage from './ConversionsPage';
import EmailsPage from './EmailsPage';
import LegalPage from './LegalPage';
import PlansAdminPage from './plans/PlansAdminPage';
import PurchasesPage from './PurchasesPage';
import QueueSystemPage from './QueueSystem';
import SettingsPage from './SettingsPage';
import UsersPage from './UsersPage';

export default function AdminRoutes() {
  return (
    <Row>
      <Col lg="auto" className="admin-sidebar-col">
        <AdminSidebar />
      </Col>
      <Col data-testid="admin-home" className="min-w-0">
        <PaymentsUnavailableBanner />
        <Routes>
          <Route index element={<AdminDashboardPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="plans" element={<PlansAdminPage />} />
          <Route path="purchases" element={<PurchasesPage />} />
          <Route path="conversions" element={<ConversionsPage />} />
          <Route path="bulk-converter" element={<BulkConverterPage />} />
          <Route path="management" element={<AdminsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="emails" element={<EmailsPage />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="legal" element={<LegalPage />} />
          <Route path="system" element={<QueueSystemPage />} />
          <Route path="queue" element={<QueueSystemPage />} />
          <Route path="*" element={<Navigate to="/admin" replace />} />
        </Routes>
      </Col>
    </Row>
  );
}
