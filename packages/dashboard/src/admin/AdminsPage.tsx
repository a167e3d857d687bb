import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { ADMIN_MESSAGES, type ApiUser } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { Loading } from '../components/Loading';
import { formatDate, formatDateTime } from '../lib/format';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { ConfirmModal, failureText } from './common';

/** Spec §2.6: administrators; create an admin, promote a user by email, demote an admin. */
export default function AdminsPage() {
  const me = useSession((s) => s.user);
  const [admins, setAdmins] = useState<ApiUser[] | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [promoteEmail, setPromoteEmail] = useState('');
  const [demoting, setDemoting] = useState<ApiUser | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setAdmins((await adminApi.admins()).users);
    } catch (e) {
      toast.error(failureText(e, 'Erro ao carregar administradores'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      toast.error(ADMIN_MESSAGES.createAdminRequired);
      return;
    }
    setBusy(true);
    try {
      const r = await adminApi.createAdmin({ email: email.trim(), password });
      toast.success(r.message, { admin: true });
      setEmail('');
      setPassword('');
      await load();
    } catch (err) {
      toast.error(failureText(err, ADMIN_MESSAGES.createAdminFailed));
    } finally {
      setBusy(false);
    }
  };

  const promote = async (e: FormEvent) => {
    e.preventDefault();
    const wanted = promoteEmail.trim().toLowerCase();
    if (!wanted) return;
    setBusy(true);
    try {
      const found = (await adminApi.users({ page: 1, limit: 100, search: wanted, role: 'user' })).users.find((u) => u.email === wanted);
      if (!found) throw new Error(ADMIN_MESSAGES.userNotFound);
      const r = await adminApi.promote(found.id);
      toast.success(r.message, { admin: true });
      setPromoteEmail('');
      await load();
    } catch (err) {
      toast.error(failureText(err, ADMIN_MESSAGES.promoteFailed));
    } finally {
      setBusy(false);
    }
  };

  const demote = async () => {
    if (!demoting) return;
    setBusy(true);
    try {
      const r = await adminApi.demote(demoting.id);
      toast.success(r.message, { admin: true });
      await load();
    } catch (err) {
      toast.error(failureText(err, ADMIN_MESSAGES.demoteFailed));
    } finally {
      setBusy(false);
      setDemoting(null);
    }
  };

  return (
    <>
      <h1 className="h3 mb-3">Gerenciar Admins</h1>
      <Row className="g-3 mb-3">
        <Col lg={6}>
          <Card className="h-100">
            <Card.Header as="h2" className="h6 mb-0">Criar administrador</Card.Header>
            <Card.Body>
              <Form onSubmit={(e) => void create(e)} noValidate data-testid="create-admin-form">
                <Form.Group className="mb-2" controlId="admin-email">
                  <Form.Label>Email</Form.Label>
                  <Form.Control type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
                </Form.Group>
                <Form.Group className="mb-3" controlId="admin-password">
                  <Form.Label>Senha</Form.Label>
                  <Form.Control type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
                  <Form.Text muted>Mínimo de 6 caracteres</Form.Text>
                </Form.Group>
                <Button type="submit" disabled={busy}>Criar Admin</Button>
              </Form>
            </Card.Body>
          </Card>
        </Col>
        <Col lg={6}>
          <Card className="h-100">
            <Card.Header as="h2" className="h6 mb-0">Promover usuário</Card.Header>
            <Card.Body>
              <Form onSubmit={(e) => void promote(e)} data-testid="promote-form">
                <Form.Group className="mb-3" controlId="promote-email">
                  <Form.Label>Email do usuário</Form.Label>
                  <Form.Control type="email" value={promoteEmail} onChange={(e) => setPromoteEmail(e.target.value)} autoComplete="off" />
                </Form.Group>
                <Button type="submit" variant="outline-primary" disabled={busy || !promoteEmail.trim()}>Promover</Button>
              </Form>
            </Card.Body>
          </Card>
        </Col>
      </Row>
      {!admins ? (
        <Loading />
      ) : (
        <Card>
          <Table responsive hover className="mb-0 align-middle" data-testid="admins-table">
            <thead>
              <tr>
                <th>Email</th>
                <th>Status</th>
                <th>Último acesso</th>
                <th>Criado em</th>
                <th className="text-end">Ações</th>
              </tr>
            </thead>
            <tbody>
              {admins.map((a) => (
                <tr key={a.id} data-testid={`admin-row-${a.email}`}>
                  <td className="text-break">
                    {a.email} {a.id === me?.id && <Badge bg="secondary">você</Badge>}
                  </td>
                  <td><Badge bg={a.isActive ? 'success' : 'secondary'}>{a.isActive ? 'Ativo' : 'Inativo'}</Badge></td>
                  <td>{formatDateTime(a.lastLogin)}</td>
                  <td>{formatDate(a.createdAt)}</td>
                  <td className="text-end">
                    <Button size="sm" variant="outline-danger" disabled={a.id === me?.id || admins.length <= 1} onClick={() => setDemoting(a)}>
                      Rebaixar
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      )}
      <ConfirmModal show={demoting !== null} title="Rebaixar administrador" confirmLabel="Rebaixar" busy={busy} onConfirm={() => void demote()} onHide={() => setDemoting(null)}>
        <strong>{demoting?.email}</strong> deixará de ser administrador e passará a ser um usuário comum.
      </ConfirmModal>
    </>
  );
}
