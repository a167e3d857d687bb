import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Table from 'react-bootstrap/Table';
import { ADMIN_LIMITS, ADMIN_MESSAGES, type AdminUserListResponse, type ApiUser, type UserType } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { Loading } from '../components/Loading';
import { formatDate } from '../lib/format';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { ConfirmModal, PageList, failureText } from './common';
import { AdminPasswordModal, CreditsModal, UserFormModal } from './UserModals';

export const USER_TYPE_LABELS: Record<UserType, string> = { credit: 'Créditos', subscription: 'Assinatura' };

function PlanCell({ user }: { user: ApiUser }) {
  if (user.userType === 'subscription') {
    const exp = user.subscription.expiresAt;
    const expired = user.usageSummary.isExpired;
    return <span className={expired ? 'text-danger' : undefined}>{exp ? `até ${formatDate(exp)}` : 'sem plano'}{expired ? ' (expirada)' : ''}</span>;
  }
  if (user.userType === 'credit') return <span data-testid="user-credits">{user.credits.available} créditos</span>;
  return <span className="text-body-secondary">sem plano</span>;
}

/** Spec §2.5: users (role user) 10 per page, search, type filter, and every user action. */
export default function UsersPage() {
  const me = useSession((s) => s.user);
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
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setData(await adminApi.users({ page, limit: ADMIN_LIMITS.usersPageSize, search, role: 'user', userType }));
      setLoadError(null);
    } catch (e) {
      setLoadError(failureText(e, 'Erro ao carregar usuários'));
    }
  }, [page, search, userType]);
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
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">Gerenciar Usuários</h1>
        <Button onClick={() => setFormUser(null)} data-testid="new-user">Novo Usuário</Button>
      </div>
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
                <Form.Control id="users-search" placeholder="Email ou nome" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
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
      {!data ? (
        !loadError && <Loading />
      ) : (
        <Card>
          <Table responsive hover className="mb-0 align-middle" data-testid="users-table">
            <thead>
              <tr>
                <th>Email</th>
                <th>Tipo</th>
                <th>Plano</th>
                <th>Status</th>
                <th>Conversões</th>
                <th>Criado em</th>
                <th className="text-end">Ações</th>
              </tr>
            </thead>
            <tbody>
              {data.users.length === 0 && (
                <tr>
                  <td colSpan={7} className="text-center text-body-secondary">Nenhum usuário encontrado</td>
                </tr>
              )}
              {data.users.map((u) => (
                <tr key={u.id} data-testid={`user-row-${u.email}`}>
                  <td className="text-break">{u.email}</td>
                  <td>{u.userType ? <Badge bg={u.userType === 'credit' ? 'info' : 'primary'}>{USER_TYPE_LABELS[u.userType]}</Badge> : '—'}</td>
                  <td><PlanCell user={u} /></td>
                  <td><Badge bg={u.isActive ? 'success' : 'secondary'}>{u.isActive ? 'Ativo' : 'Inativo'}</Badge></td>
                  <td>{u.conversionsCount} <span className="text-body-secondary small">({u.monthlyConversions} no mês)</span></td>
                  <td>{formatDate(u.createdAt)}</td>
                  <td className="text-end">
                    <Dropdown as={ButtonGroup} align="end">
                      <Button size="sm" variant="outline-primary" onClick={() => setFormUser(u)}>Editar</Button>
                      <Dropdown.Toggle split size="sm" variant="outline-primary" aria-label={`Mais ações para ${u.email}`} />
                      <Dropdown.Menu>
                        <Dropdown.Item as="button" onClick={() => setCreditsUser(u)}>Gerenciar créditos</Dropdown.Item>
                        <Dropdown.Item as="button" onClick={() => setPasswordUser(u)}>Alterar senha</Dropdown.Item>
                        <Dropdown.Item as="button" onClick={() => void act(() => adminApi.setType(u.id, u.userType === 'credit' ? 'subscription' : 'credit'), ADMIN_MESSAGES.updateFailed)}>
                          Mudar para {u.userType === 'credit' ? 'Assinatura' : 'Créditos'}
                        </Dropdown.Item>
                        <Dropdown.Item as="button" disabled={u.id === me?.id} onClick={() => void act(() => adminApi.toggleStatus(u.id), ADMIN_MESSAGES.toggleFailed)}>
                          {u.isActive ? 'Desativar' : 'Ativar'}
                        </Dropdown.Item>
                        <Dropdown.Item as="button" onClick={() => void act(() => adminApi.promote(u.id), ADMIN_MESSAGES.promoteFailed)}>Promover a admin</Dropdown.Item>
                        <Dropdown.Divider />
                        <Dropdown.Item as="button" className="text-danger" onClick={() => setDeleting(u)}>Excluir</Dropdown.Item>
                      </Dropdown.Menu>
                    </Dropdown>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Card.Footer className="d-flex flex-wrap justify-content-between align-items-center gap-2">
            <span className="small text-body-secondary">{data.total} usuário(s)</span>
            <PageList page={data.page} totalPages={data.totalPages} onChange={setPage} />
          </Card.Footer>
        </Card>
      )}
      <UserFormModal show={formUser !== undefined} user={formUser ?? null} onHide={() => setFormUser(undefined)} onSaved={() => void load()} />
      <CreditsModal user={creditsUser} onHide={() => setCreditsUser(null)} onSaved={() => void load()} />
      <AdminPasswordModal user={passwordUser} onHide={() => setPasswordUser(null)} />
      <ConfirmModal show={deleting !== null} title="Excluir usuário" confirmLabel="Excluir" busy={busy} onConfirm={() => void remove()} onHide={() => setDeleting(null)}>
        Excluir <strong>{deleting?.email}</strong>? A conta deixa de entrar e suas conversões em andamento são canceladas; compras e pagamentos ficam guardados.
      </ConfirmModal>
    </>
  );
}
