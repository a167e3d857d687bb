import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { ADMIN_LIMITS, ADMIN_MESSAGES, countOf, formatNumber, type AdminUserListResponse, type ApiUser, type UserType } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { useNavigate } from 'react-router-dom';
import { ActionMenu, type Action } from '../components/ActionMenu';
import { DataList } from '../components/DataList';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { Truncate } from '../components/Truncate';
import { formatDate } from '../lib/format';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { ConfirmModal, PageList, failureText } from './common';
import { AdminPasswordModal, CreditsModal, UserFormModal } from './UserModals';
import { UserBillingModal } from './UserBillingModal';

export const USER_TYPE_LABELS: Record<UserType, string> = { credit: 'Créditos', subscription: 'Assinatura' };

function PlanCell({ user }: { user: ApiUser }) {
  if (user.userType === 'subscription') {
    const exp = user.subscription.expiresAt;
    const expired = user.usageSummary.isExpired;
    return <span className={expired ? 'text-danger' : undefined}>{exp ? `até ${formatDate(exp)}` : 'sem plano'}{expired ? ' (expirada)' : ''}</span>;
  }
  if (user.userType === 'credit') return <span data-testid="user-credits">{countOf(user.credits.available, 'crédito', 'créditos')}</span>;
  return <span className="text-body-secondary">sem plano</span>;
}

/** Gerenciar Usuários (docs/admin.md): users (role user) 10 per page, search, type filter, and every user action. */
export default function UsersPage() {
  const me = useSession((s) => s.user);
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [userType, setUserType] = useState<UserType | 'none' | ''>('');
  const [data, setData] = useState<AdminUserListResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [formUser, setFormUser] = useState<ApiUser | null | undefined>(undefined);
  const [creditsUser, setCreditsUser] = useState<ApiUser | null>(null);
  const [passwordUser, setPasswordUser] = useState<ApiUser | null>(null);
  const [deleting, setDeleting] = useState<ApiUser | null>(null);
  const [billingUser, setBillingUser] = useState<ApiUser | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      adminApi.users({ page, limit: ADMIN_LIMITS.usersPageSize, search, role: 'user', userType }).then(
        (answer) => {
          setData(answer);
          setLoadError(null);
        },
        (e: unknown) => setLoadError(failureText(e, 'Erro ao carregar usuários')),
      ),
    [page, search, userType],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (fn: () => Promise<{ message: string }>, failure: string) => {
    try {
      const r = await fn();
      toast.success(r.message, { admin: true });
      await load();
    } catch (e) {
      toast.error(failureText(e, failure));
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    await act(() => adminApi.deleteUser(deleting.id), ADMIN_MESSAGES.deleteFailed);
    setBusy(false);
    setDeleting(null);
  };

  return (
    <>
      <PageHeader
        title="Gerenciar Usuários"
        subtitle="Clientes (administradores ficam em Administradores)"
        actions={
          <Button onClick={() => setFormUser(null)} data-testid="new-user">
            <Icon name="plus-lg" className="me-1" />
            Novo Usuário
          </Button>
        }
      />
      <Card className="mb-3">
        <Card.Body>
          <Form
            className="row g-2 align-items-end"
            onSubmit={(e) => {
              e.preventDefault();
              setPage(1);
              setSearch(searchText.trim());
            }}
          >
            <div className="col-md-6">
              <Form.Label htmlFor="users-search">Buscar</Form.Label>
              <InputGroup>
                <Form.Control id="users-search" placeholder="E-mail ou nome" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
                <Button type="submit" variant="outline-primary">Buscar</Button>
              </InputGroup>
            </div>
            <div className="col-md-3">
              <Form.Label htmlFor="users-type">Tipo</Form.Label>
              <Form.Select
                id="users-type"
                value={userType}
                onChange={(e) => {
                  setPage(1);
                  setUserType(e.target.value as UserType | 'none' | '');
                }}
              >
                <option value="">Todos</option>
                <option value="credit">Créditos</option>
                <option value="subscription">Assinatura</option>
                <option value="none">Sem plano</option>
              </Form.Select>
            </div>
            <div className="col-md-3">
              <Button
                variant="outline-secondary"
                className="w-100"
                onClick={() => {
                  setSearchText('');
                  setSearch('');
                  setUserType('');
                  setPage(1);
                }}
              >
                Limpar
              </Button>
            </div>
          </Form>
        </Card.Body>
      </Card>
      {loadError && (
        <Card body className="text-danger mb-3">
          {loadError}{' '}
          <Button size="sm" variant="outline-danger" onClick={() => void load()}>Tentar Novamente</Button>
        </Card>
      )}
      {loadError && !data ? null : (
        <>
          <DataList<ApiUser>
            items={data ? data.users : null}
            rowKey={(u) => u.id}
            testId="users-table"
            caption="Usuários"
            empty="Nenhum usuário encontrado"
            rowProps={(u) => ({ 'data-testid': `user-row-${u.email}` })}
            columns={[
              {
                key: 'email',
                header: 'E-mail',
                primary: true,
                render: (u) => (
                  <>
                    <Truncate text={u.email} max="260px" />
                    {!u.emailVerified && u.role !== 'admin' && (
                      <Badge bg="warning" text="dark" className="ms-2" data-testid="email-unconfirmed">
                        não confirmado
                      </Badge>
                    )}
                  </>
                ),
              },
              { key: 'type', header: 'Tipo', render: (u) => (u.userType ? <Badge bg={u.userType === 'credit' ? 'info' : 'primary'} text={u.userType === 'credit' ? 'dark' : undefined}>{USER_TYPE_LABELS[u.userType]}</Badge> : '—') },
              { key: 'plan', header: 'Plano', render: (u) => <PlanCell user={u} /> },
              { key: 'status', header: 'Status', render: (u) => <Badge bg={u.isActive ? 'success' : 'secondary'}>{u.isActive ? 'Ativo' : 'Inativo'}</Badge> },
              {
                key: 'conversions',
                header: 'Conversões',
                className: 'text-nowrap',
                render: (u) => (
                  <>
                    {formatNumber(u.conversionsCount)} <span className="text-body-secondary small">({formatNumber(u.monthlyConversions)} no mês)</span>
                  </>
                ),
              },
              { key: 'created', header: 'Criado em', className: 'text-nowrap', render: (u) => formatDate(u.createdAt) },
            ]}
            actions={(u) => (
              <>
                <Button size="sm" variant="outline-primary" onClick={() => setFormUser(u)}>
                  <Icon name="pencil" className="me-1" />
                  Editar
                </Button>
                <ActionMenu
                  label={`Mais ações para ${u.email}`}
                  actions={[
                    { label: 'Gerenciar créditos', icon: 'cash-coin', onSelect: () => setCreditsUser(u) },
                    { label: 'Alterar senha', icon: 'key', onSelect: () => setPasswordUser(u) },
                    { label: `Mudar para ${u.userType === 'credit' ? 'Assinatura' : 'Créditos'}`, icon: 'arrow-repeat', onSelect: () => void act(() => adminApi.setType(u.id, u.userType === 'credit' ? 'subscription' : 'credit'), ADMIN_MESSAGES.updateFailed) },
                    { label: u.isActive ? 'Desativar' : 'Ativar', icon: 'person-circle', disabled: u.id === me?.id, hint: 'Você não pode desativar a própria conta', onSelect: () => void act(() => adminApi.toggleStatus(u.id), ADMIN_MESSAGES.toggleFailed) },
                    ...(u.emailVerified
                      ? []
                      : [
                          { label: 'Marcar e-mail como confirmado', icon: 'check-circle-fill', onSelect: () => void act(() => adminApi.markEmailVerified(u.id), ADMIN_MESSAGES.updateFailed) },
                          { label: 'Reenviar confirmação', icon: 'envelope', onSelect: () => void act(() => adminApi.resendVerification(u.id), ADMIN_MESSAGES.updateFailed) },
                        ] satisfies Action[]),
                    { label: 'Promover a administrador', icon: 'person-badge', onSelect: () => void act(() => adminApi.promote(u.id), ADMIN_MESSAGES.promoteFailed) },
                    { label: 'Dados de faturamento', icon: 'receipt', onSelect: () => setBillingUser(u) },
                    { label: 'Ver conversões', icon: 'collection', onSelect: () => navigate(`/admin/conversions?userId=${encodeURIComponent(u.id)}`) },
                    { label: 'Excluir', icon: 'trash', danger: true, onSelect: () => setDeleting(u) },
                  ]}
                />
              </>
            )}
          />
          {data && (
            <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
              <span className="small text-body-secondary">{countOf(data.total, 'usuário', 'usuários')}</span>
              <PageList page={data.page} totalPages={data.totalPages} onChange={setPage} />
            </div>
          )}
        </>
      )}
      <UserFormModal show={formUser !== undefined} user={formUser ?? null} onHide={() => setFormUser(undefined)} onSaved={() => void load()} />
      <CreditsModal user={creditsUser} onHide={() => setCreditsUser(null)} onSaved={() => void load()} />
      <AdminPasswordModal user={passwordUser} onHide={() => setPasswordUser(null)} />
      <UserBillingModal user={billingUser} onHide={() => setBillingUser(null)} />
      <ConfirmModal show={deleting !== null} title="Excluir usuário" confirmLabel="Excluir" busy={busy} onConfirm={() => void remove()} onHide={() => setDeleting(null)}>
        Excluir <strong>{deleting?.email}</strong>? A conta deixa de entrar e suas conversões em andamento são canceladas; compras e pagamentos ficam guardados.
      </ConfirmModal>
    </>
  );
}
