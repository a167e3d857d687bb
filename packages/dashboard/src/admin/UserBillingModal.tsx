/** Admin › Usuários › Dados de faturamento: the billing details the user saved (GET /admin/users/{id}). */
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { BillingDetailsList } from '../components/BillingDetailsList';
import Modal from 'react-bootstrap/Modal';
import type { AdminUserDetail, ApiUser } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { Loading } from '../components/Loading';

export function UserBillingModal({ user, onHide }: { user: ApiUser | null; onHide(): void }) {
  // The answer is kept with the user it is about: another user's shows as loading until its own arrives.
  const [answer, setAnswer] = useState<{ userId: string; detail: AdminUserDetail | 'failed' } | null>(null);
  useEffect(() => {
    if (!user) return;
    let live = true;
    adminApi.user(user.id).then(
      (d) => live && setAnswer({ userId: user.id, detail: d }),
      () => live && setAnswer({ userId: user.id, detail: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [user]);
  const detail = answer && user && answer.userId === user.id ? answer.detail : null;
  const b = detail && detail !== 'failed' ? detail.billingDetails : null;
  return (
    <Modal show={user !== null} onHide={onHide} centered aria-labelledby="user-billing-title" data-testid="user-billing">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="user-billing-title" as="h2" className="h5">
          Dados de faturamento de {user?.email}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {detail === null ? (
          <Loading />
        ) : detail === 'failed' ? (
          <p className="text-danger">Não foi possível carregar os dados do usuário.</p>
        ) : b ? (
          <BillingDetailsList details={b} className="small mb-0" />
        ) : (
          <p className="text-body-secondary mb-0">O usuário ainda não informou dados de faturamento.</p>
        )}
        <p className="small text-body-secondary mt-3 mb-0">Cada compra guarda os dados como estavam quando foi feita (Compras › Detalhes).</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Fechar
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
