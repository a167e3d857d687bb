import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { ACCOUNT_MESSAGES, ADMIN_MESSAGES, adminCreateAdminFormSchema as createAdminFormSchema, type ApiUser } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { DataList } from '../components/DataList';
import { FormField } from '../components/FormField';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { Truncate } from '../components/Truncate';
import { showServerErrors } from '../lib/formErrors';
import { formatDate, formatDateTime } from '../lib/format';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { ConfirmModal, failureText } from './common';

/** Administrators (docs/admin.md): create an admin, promote a user by email, demote an admin. */
export default function AdminsPage() {
  const me = useSession((s) => s.user);
  const [admins, setAdmins] = useState<ApiUser[] | null>(null);
  const [promoteEmail, setPromoteEmail] = useState('');
  const [demoting, setDemoting] = useState<ApiUser | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      adminApi.admins().then(
        (answer) => setAdmins(answer.users),
        (e: unknown) => toast.error(failureText(e, 'Erro ao carregar administradores')),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const create = async (values: { email: string; password: string }, helpers: FormikHelpers<{ email: string; password: string }>) => {
    try {
      const r = await adminApi.createAdmin({ email: values.email.trim(), password: values.password });
      toast.success(r.message, { admin: true });
      helpers.resetForm();
      await load();
    } catch (err) {
      showServerErrors(err, helpers, ['email', 'password'], ADMIN_MESSAGES.createAdminFailed);
    } finally {
      helpers.setSubmitting(false);
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
      <PageHeader title="Administradores" />
      <Row className="g-3 mb-3">
        <Col lg={6}>
          <Card className="h-100">
            <Card.Header as="h2" className="h6 mb-0">Criar administrador</Card.Header>
            <Card.Body>
              {/* The same password rules as every form, checked in the browser first. */}
              <Formik initialValues={{ email: '', password: '' }} validationSchema={createAdminFormSchema} validateOnBlur={false} onSubmit={create}>
                {({ isSubmitting }) => (
                  <FormikForm noValidate data-testid="create-admin-form">
                    <FormField name="email" label="E-mail" type="email" autoComplete="off" />
                    <FormField name="password" label="Senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
                    <Button type="submit" disabled={isSubmitting}>
                      <Icon name="plus-lg" className="me-1" />
                      Criar administrador
                    </Button>
                  </FormikForm>
                )}
              </Formik>
            </Card.Body>
          </Card>
        </Col>
        <Col lg={6}>
          <Card className="h-100">
            <Card.Header as="h2" className="h6 mb-0">Promover usuário</Card.Header>
            <Card.Body>
              <Form onSubmit={(e) => void promote(e)} data-testid="promote-form">
                <Form.Group className="mb-3" controlId="promote-email">
                  <Form.Label>E-mail do usuário</Form.Label>
                  <Form.Control type="email" value={promoteEmail} onChange={(e) => setPromoteEmail(e.target.value)} autoComplete="off" />
                </Form.Group>
                <Button type="submit" variant="outline-primary" disabled={busy || !promoteEmail.trim()}>Promover</Button>
              </Form>
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <DataList<ApiUser>
        items={admins}
        rowKey={(a) => a.id}
        testId="admins-table"
        caption="Administradores"
        empty="Nenhum administrador"
        rowProps={(a) => ({ 'data-testid': `admin-row-${a.email}` })}
        columns={[
          {
            key: 'email',
            header: 'E-mail',
            primary: true,
            render: (a) => (
              <>
                <Truncate text={a.email} max="260px" /> {a.id === me?.id && <Badge bg="secondary">você</Badge>}
              </>
            ),
          },
          { key: 'status', header: 'Status', render: (a) => <Badge bg={a.isActive ? 'success' : 'secondary'}>{a.isActive ? 'Ativo' : 'Inativo'}</Badge> },
          { key: 'last', header: 'Último acesso', className: 'text-nowrap small', render: (a) => formatDateTime(a.lastLogin) },
          { key: 'created', header: 'Criado em', className: 'text-nowrap', render: (a) => formatDate(a.createdAt) },
        ]}
        actions={(a) => (
          <Button
            size="sm"
            variant="outline-danger"
            disabled={a.id === me?.id || (admins?.length ?? 0) <= 1}
            title={a.id === me?.id ? 'Você não pode rebaixar a si mesmo' : (admins?.length ?? 0) <= 1 ? 'O último administrador não pode ser rebaixado' : undefined}
            onClick={() => setDemoting(a)}
          >
            Rebaixar
          </Button>
        )}
      />
      <ConfirmModal show={demoting !== null} title="Rebaixar administrador" confirmLabel="Rebaixar" busy={busy} onConfirm={() => void demote()} onHide={() => setDemoting(null)}>
        <strong>{demoting?.email}</strong> deixará de ser administrador e passará a ser um usuário comum.
      </ConfirmModal>
    </>
  );
}
