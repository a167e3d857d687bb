/**
 * 'Minhas compras' (/purchases): the signed-in user's purchases, newest first, in pages of 10
 * (GET /payments/purchases). No plan is needed: a user without a plan may have a pending
 * purchase. A pending PIX can be opened again (the PIX modal with its polling, as on /plans)
 * or followed on its return page (/payment-status).
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router-dom';
import { PAYMENT_MESSAGES, type ApiPixPayment, type ApiPurchase } from '@aabify/shared';
import { plansApi } from '../api/plans';
import { paymentsApi, type PurchaseListResponse } from '../api/payments';
import type { PlansEntryState } from '../components/guards';
import { Loading } from '../components/Loading';
import { PageList } from '../components/PageList';
import { formatDateTime } from '../lib/format';
import {
  PURCHASE_STATUS_VARIANTS,
  PURCHASE_TEXTS,
  canResumePayment,
  paymentStatusPath,
  purchaseDetail,
  purchaseReason,
  purchaseStatusDate,
  purchaseStatusLabel,
} from '../lib/purchases';
import { syncPlanAfterApproval } from '../stores/planAccess';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { pendingPayment } from './plans/pendingPayment';
import { PixModal } from './plans/PixModal';
import { PIX_PHASE_MESSAGES, phaseOfStatus, usePixCheck, usePixPolling } from './plans/usePixPolling';
import { usePageTitle } from '../components/PageHeader';

export const MY_PURCHASES_PAGE_SIZE = 10;
const PLANS_STATE: PlansEntryState = { topUp: true };

function StatusCell({ p }: { p: ApiPurchase }) {
  const date = purchaseStatusDate(p);
  const reason = purchaseReason(p);
  return (
    <>
      <Badge bg={PURCHASE_STATUS_VARIANTS[p.status] ?? 'secondary'} text={p.status === 'pending' || p.status === 'refunded' ? 'dark' : undefined} data-testid="purchase-status">
        {purchaseStatusLabel(p)}
      </Badge>
      {date && (
        <div className="small text-body-secondary">
          {date.label} {formatDateTime(date.at)}
        </div>
      )}
      {reason && <div className="small text-body-secondary text-break">Motivo: {reason}</div>}
    </>
  );
}

export default function PurchasesPage() {
  usePageTitle('Minhas compras');
  const userId = useSession((s) => s.user?.id);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<PurchaseListResponse | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [opening, setOpening] = useState<string | null>(null);
  const [payment, setPayment] = useState<ApiPixPayment | null>(null);
  const [planName, setPlanName] = useState('');

  const load = useCallback(
    (signal?: AbortSignal) =>
      paymentsApi.purchases(page, MY_PURCHASES_PAGE_SIZE, signal).then(
        (r) => {
          setData(r);
          setLoadError(false);
        },
        () => {
          if (!signal?.aborted) setLoadError(true);
        },
      ),
    [page],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  // A final answer of the reopened PIX: the list is read again; an approval also refreshes the plan.
  const polling = usePixPolling(payment, (phase, ended) => {
    if (phase === 'approved') {
      pendingPayment.forgetIf(ended.id);
      setPayment(null);
      toast.success(PAYMENT_MESSAGES.approved);
      void syncPlanAfterApproval().then(() => load());
    } else if (phase === 'rejected' || phase === 'cancelled' || phase === 'not_found' || phase === 'expired') {
      pendingPayment.forgetIf(ended.id);
      toast.error(PIX_PHASE_MESSAGES[phase] ?? PAYMENT_MESSAGES.statusFailed);
      void load();
    }
  });
  const { checking, check } = usePixCheck(payment, polling);

  const resume = async (p: ApiPurchase) => {
    if (!p.paymentId) return;
    setOpening(p.id);
    try {
      const r = await plansApi.pixStatus(p.paymentId);
      const phase = phaseOfStatus(r.payment.status, r.payment.isExpired);
      if (phase === 'polling') {
        pendingPayment.remember(r.payment.id, p.id, userId);
        setPlanName(p.planSnapshot.name);
        setPayment(r.payment);
      } else if (phase === 'approved') {
        pendingPayment.forgetIf(r.payment.id);
        toast.success(PAYMENT_MESSAGES.approved);
        await syncPlanAfterApproval();
        await load();
      } else {
        pendingPayment.forgetIf(r.payment.id);
        toast.error(PIX_PHASE_MESSAGES[phase] ?? PAYMENT_MESSAGES.statusFailed);
        await load();
      }
    } catch {
      toast.error(PURCHASE_TEXTS.resumeFailed);
    } finally {
      setOpening(null);
    }
  };


  const rows = data?.purchases ?? [];
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">Minhas compras</h1>
        <Link to="/plans" state={PLANS_STATE} className="btn btn-primary btn-sm">
          Ver planos
        </Link>
      </div>
      {loadError && !data ? (
        <Alert variant="danger" className="d-flex flex-wrap justify-content-between align-items-center gap-2" data-testid="purchases-error">
          <span>{PURCHASE_TEXTS.loadFailed}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void load()}>
            Tentar Novamente
          </Button>
        </Alert>
      ) : !data ? (
        <Loading />
      ) : (
        <Card>
          {rows.length === 0 ? (
            <Card.Body className="text-center text-body-secondary" data-testid="purchases-empty">
              Você ainda não fez nenhuma compra.
            </Card.Body>
          ) : (
            <ListGroup variant="flush" as="ul" aria-label="Suas compras, das mais recentes para as mais antigas" data-testid="my-purchases-list">
              {rows.map((p) => (
                <ListGroup.Item as="li" key={p.id} data-testid="my-purchase-row" data-purchase-id={p.id} data-status={p.status}>
                  <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
                    <div className="me-auto" style={{ minWidth: 0 }}>
                      <h2 className="h6 mb-0 text-break">{p.planSnapshot.name}</h2>
                      <div className="small text-body-secondary">{purchaseDetail(p)}</div>
                      <div className="small text-body-secondary">
                        Compra em <time dateTime={p.createdAt}>{formatDateTime(p.createdAt)}</time>
                      </div>
                    </div>
                    <div className="text-end ms-auto">
                      <div className="fw-semibold">{p.formattedAmount}</div>
                      <StatusCell p={p} />
                    </div>
                  </div>
                  {canResumePayment(p) && (
                    <div className="d-flex flex-wrap gap-2 mt-2">
                      <Button size="sm" variant="primary" onClick={() => void resume(p)} disabled={opening !== null} aria-label={`Pagar com PIX: ${p.planSnapshot.name}`}>
                        {opening === p.id && <Spinner size="sm" className="me-1" aria-hidden="true" />}
                        Pagar com PIX
                      </Button>
                      <Link to={paymentStatusPath(p)} className="btn btn-sm btn-outline-secondary" aria-label={`Acompanhar pagamento: ${p.planSnapshot.name}`}>
                        Acompanhar
                      </Link>
                    </div>
                  )}
                </ListGroup.Item>
              ))}
            </ListGroup>
          )}
          {data.pagination.total > 0 && (
            <Card.Footer className="d-flex flex-wrap justify-content-between align-items-center gap-2">
              <span className="small text-body-secondary" data-testid="purchases-summary">
                {data.pagination.total} {data.pagination.total === 1 ? 'compra' : 'compras'} · página {data.pagination.page} de {Math.max(1, data.pagination.pages)}
              </span>
              <PageList page={data.pagination.page} totalPages={data.pagination.pages} onChange={setPage} label="Paginação das compras" max={5} />
            </Card.Footer>
          )}
        </Card>
      )}
      <PixModal
        payment={payment}
        planName={planName}
        phase={polling.phase}
        checking={checking}
        onCheck={() => void check()}
        onClose={() => {
          setPayment(null);
          void load();
        }}
        onExpired={() => polling.settle('expired')}
      />
    </>
  );
}
