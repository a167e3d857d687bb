import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link, useSearchParams } from 'react-router-dom';
import { formatMoney, PAYMENT_MESSAGES, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, type PurchaseStatusResponse } from '@aabify/shared';
import { plansApi } from '../api/plans';
import type { PlansEntryState } from '../components/guards';
import { Loading } from '../components/Loading';
import { syncPlanAfterApproval } from '../stores/planAccess';
import { SupportContact } from '../components/SupportContact';
import { usePageTitle } from '../components/PageHeader';

export const PAYMENT_STATUS_REFRESH_MS = 3000;

/** /plans opened from here stays open for a user whose plan is active (PlansGuard). */
const PLANS_STATE: PlansEntryState = { topUp: true };

const VARIANTS: Record<string, string> = { approved: 'success', pending: 'warning', rejected: 'danger', cancelled: 'secondary', refunded: 'secondary' };

/** What a purchase's state means for its method, in the buyer's words. */
export function paymentStatusText(p: Pick<PurchaseStatusResponse, 'status' | 'method'>): string | null {
  switch (p.status) {
    case 'approved':
      return PAYMENT_MESSAGES.approved;
    case 'pending':
      if (p.method === 'boleto') return PAYMENT_MESSAGES.statusPendingBoleto;
      if (p.method === 'card') return PAYMENT_MESSAGES.statusPendingCard;
      return p.method === 'pix' ? null : PAYMENT_MESSAGES.statusPendingCheckout;
    case 'rejected':
      return PAYMENT_MESSAGES.statusRejected;
    case 'cancelled':
      return PAYMENT_MESSAGES.statusCancelled;
    case 'refunded':
      return PAYMENT_MESSAGES.statusRefunded;
    default:
      return null;
  }
}

/** The payment return page: reads purchase_id (and payment_id), refreshes every 3 s, also in the background. */
export default function PaymentStatusPage() {
  usePageTitle('Status do pagamento');
  const [params] = useSearchParams();
  const purchaseId = params.get('purchase_id');
  const [purchase, setPurchase] = useState<PurchaseStatusResponse | null>(null);
  const [error, setError] = useState(false);

  useEffect(() => {
    if (!purchaseId) return;
    let live = true;
    let synced = false;
    const load = () =>
      plansApi
        .purchaseStatus(purchaseId)
        .then((p) => {
          if (!live) return;
          setPurchase(p);
          setError(false);
          if (p.status === 'approved' && !synced) {
            synced = true;
            void syncPlanAfterApproval();
          }
        })
        .catch(() => live && setError(true));
    void load();
    const t = setInterval(load, PAYMENT_STATUS_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [purchaseId]);

  if (!purchaseId) {
    return (
      <Card className="mx-auto text-center" style={{ maxWidth: 480 }} data-testid="payment-invalid">
        <Card.Body className="p-4">
          <h1 className="h4">{PAYMENT_MESSAGES.invalidLink}</h1>
          <p className="text-body-secondary">O link de retorno do pagamento não tem a identificação da compra.</p>
          <div className="d-flex flex-wrap justify-content-center gap-2">
            <Link to="/plans" state={PLANS_STATE} className="btn btn-primary">
              Ver planos
            </Link>
            <Link to="/purchases" className="btn btn-outline-secondary">
              Minhas compras
            </Link>
          </div>
        </Card.Body>
      </Card>
    );
  }
  return (
    <Card className="mx-auto" style={{ maxWidth: 520 }} data-testid="payment-status">
      <Card.Body className="p-4">
        <h1 className="h4">Status do pagamento</h1>
        {error && !purchase && <p className="text-danger">{PAYMENT_MESSAGES.statusFailed}</p>}
        {!purchase && !error && <Loading />}
        {purchase && (
          <>
            <p className="mb-1">{purchase.planSnapshot?.name ?? PAYMENT_MESSAGES.unknownPlan}</p>
            <p className="fs-4 fw-bold">{formatMoney(purchase.amountCents, purchase.currency)}</p>
            <p>
              <Badge bg={VARIANTS[purchase.status] ?? 'secondary'} text={purchase.status === 'pending' ? 'dark' : undefined} data-testid="payment-status-label">
                {purchase.statusLabel ?? PAYMENT_STATUS_LABELS[purchase.status]}
              </Badge>
            </p>
            {purchase.method && (
              <p className="small mb-2" data-testid="payment-status-method">
                Forma de pagamento: {PAYMENT_METHOD_LABELS[purchase.method]}
              </p>
            )}
            {paymentStatusText(purchase) && (
              <p className={purchase.status === 'approved' ? 'text-success' : purchase.status === 'rejected' ? 'text-danger' : undefined} data-testid="payment-status-text">
                {paymentStatusText(purchase)}
              </p>
            )}
            {purchase.boletoUrl && (
              <a href={purchase.boletoUrl} target="_blank" rel="noreferrer noopener" className="btn btn-sm btn-outline-primary mb-2">
                Abrir boleto
              </a>
            )}
            {purchase.checkoutUrl && (purchase.status === 'pending' || purchase.status === 'rejected') && (
              <a href={purchase.checkoutUrl} className="btn btn-sm btn-outline-primary mb-2" data-testid="payment-status-checkout">
                Continuar pagamento
              </a>
            )}
            {(purchase.status === 'rejected' || purchase.status === 'cancelled') && <SupportContact compact lead="O pagamento não foi concluído e nada foi cobrado." />}
            {purchase.status === 'pending' && <p className="text-body-secondary small">Atualizando a cada 3 segundos…</p>}
          </>
        )}
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Link to="/dashboard" className="btn btn-primary">
            Continuar para o Painel
          </Link>
          <Link to="/plans" state={PLANS_STATE} className="btn btn-outline-secondary">
            Escolher outro plano
          </Link>
          <Link to="/purchases" className="btn btn-outline-secondary">
            Minhas compras
          </Link>
        </div>
      </Card.Body>
    </Card>
  );
}
