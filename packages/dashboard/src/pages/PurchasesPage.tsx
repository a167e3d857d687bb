/**
 * 'Minhas compras' (/purchases): the signed-in user's purchases, newest first, in pages of 10
 * (GET /payments/purchases). No plan is needed: a user without a plan may have a pending
 * purchase. A pending PIX can be opened again (the PIX modal with its polling, as on /plans)
 * or followed on its return page (/payment-status); a pending boleto opens its slip; a
 * renewal shows its state and can be stopped ("Cancelar renovação"). In the sandbox, a boleto's
 * payment and a renewal's next charge can be simulated. An approved (or later refunded) purchase
 * has its PDF receipt ("Baixar recibo") and, when NFS-e are issued, its note's state and links.
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
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
  PURCHASE_TEXTS,
  canCancelRenewal,
  canResumePayment,
  purchaseMethodText,
  paymentStatusPath,
  purchaseDetail,
} from '../lib/purchases';
import { syncPlanAfterApproval } from '../stores/planAccess';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';
import { isApiRequestError } from '../api/client';
import { ConfirmModal } from '../components/ConfirmModal';
import { pendingPayment } from './plans/pendingPayment';
import { PixModal } from './plans/PixModal';
import { PIX_PHASE_MESSAGES, phaseOfStatus, usePixCheck, usePixPolling } from './plans/usePixPolling';
import { usePageTitle } from '../components/PageHeader';
import { FiscalNoteLine, ReceiptButton } from '../components/FiscalDocuments';
import { PurchaseStatusCell } from '../components/PurchaseStatusCell';

export const MY_PURCHASES_PAGE_SIZE = 10;
const PLANS_STATE: PlansEntryState = { topUp: true };

/** A renewal's actions go on its newest purchase on the page only (each period is a purchase). */
function latestOfRenewal(rows: ApiPurchase[], renewalId: string): string | undefined {
  return rows.find((r) => r.renewal?.id === renewalId)?.id;
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
  const [sandbox, setSandbox] = useState(false);
  const [cancelling, setCancelling] = useState<ApiPurchase | null>(null);
  useEffect(() => {
    paymentsApi
      .config()
      .then((c) => setSandbox(c.canSimulateApproval))
      .catch(() => setSandbox(false));
  }, []);

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


  /** Runs a row action, words its failure, reads the list (and the plan) again. */
  const rowAction = async (key: string, run: () => Promise<{ message?: string }>, failed: string) => {
    setOpening(key);
    try {
      const r = await run();
      if (r.message) toast.success(r.message);
      await syncPlanAfterApproval();
      await load();
    } catch (e) {
      toast.error(isApiRequestError(e) && e.message ? e.message : failed);
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
                      {purchaseMethodText(p) && (
                        <div className="small text-body-secondary" data-testid="purchase-method">
                          Pago com: {purchaseMethodText(p)}
                        </div>
                      )}
                      {p.renewal && (
                        <div className="small" data-testid="purchase-renewal" data-renewal-status={p.renewal.status}>
                          {p.renewal.statusLabel}
                          {p.renewal.lastFailureAt && p.renewal.status === 'active' && (
                            <span className="text-danger"> · última cobrança recusada em {formatDateTime(p.renewal.lastFailureAt)}</span>
                          )}
                        </div>
                      )}
                      {p.status === 'pending' && p.method === 'boleto' && <div className="small text-warning-emphasis">{PURCHASE_TEXTS.boletoPending}</div>}
                      <FiscalNoteLine purchase={p} />
                      <div className="small text-body-secondary">
                        Compra em <time dateTime={p.createdAt}>{formatDateTime(p.createdAt)}</time>
                      </div>
                    </div>
                    <div className="text-end ms-auto">
                      <div className="fw-semibold">{p.formattedAmount}</div>
                      <PurchaseStatusCell purchase={p} />
                    </div>
                  </div>
                  {(p.boletoUrl || p.checkoutUrl || canCancelRenewal(p) || (sandbox && p.status === 'pending' && p.method === 'boleto' && p.paymentId)) && (
                    <div className="d-flex flex-wrap gap-2 mt-2">
                      {p.boletoUrl && (
                        <a href={p.boletoUrl} target="_blank" rel="noreferrer noopener" className="btn btn-sm btn-outline-primary">
                          {PURCHASE_TEXTS.payBoleto}
                        </a>
                      )}
                      {p.checkoutUrl && (
                        <a href={p.checkoutUrl} className="btn btn-sm btn-outline-primary">
                          {PURCHASE_TEXTS.backToCheckout}
                        </a>
                      )}
                      {sandbox && p.status === 'pending' && p.method === 'boleto' && p.paymentId && (
                        <Button size="sm" variant="outline-success" disabled={opening !== null} onClick={() => void rowAction(p.id, () => paymentsApi.simulateApproval(p.paymentId!), PURCHASE_TEXTS.simulateFailed)}>
                          {PURCHASE_TEXTS.simulate}
                        </Button>
                      )}
                      {sandbox && p.renewal?.status === 'active' && p.id === latestOfRenewal(rows, p.renewal.id) && (
                        <>
                          <Button size="sm" variant="outline-success" disabled={opening !== null} onClick={() => void rowAction(p.id, () => paymentsApi.simulateRenewalCharge(p.renewal!.id, 'approved'), PURCHASE_TEXTS.simulateRenewalFailed)}>
                            {PURCHASE_TEXTS.simulateRenewal}
                          </Button>
                          <Button size="sm" variant="outline-danger" disabled={opening !== null} onClick={() => void rowAction(p.id, () => paymentsApi.simulateRenewalCharge(p.renewal!.id, 'rejected'), PURCHASE_TEXTS.simulateRenewalFailed)}>
                            {PURCHASE_TEXTS.simulateRenewalRefused}
                          </Button>
                        </>
                      )}
                      {canCancelRenewal(p) && p.id === latestOfRenewal(rows, p.renewal!.id) && (
                        <Button size="sm" variant="outline-danger" disabled={opening !== null} onClick={() => setCancelling(p)} aria-label={`${PURCHASE_TEXTS.cancelRenewal}: ${p.planSnapshot.name}`}>
                          {PURCHASE_TEXTS.cancelRenewal}
                        </Button>
                      )}
                    </div>
                  )}
                  {p.receiptAvailable && (
                    <div className="d-flex flex-wrap gap-2 mt-2">
                      <ReceiptButton purchase={p} />
                    </div>
                  )}
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
      <ConfirmModal
        show={cancelling !== null}
        title={PURCHASE_TEXTS.cancelRenewal}
        confirmLabel={PURCHASE_TEXTS.cancelRenewal}
        onConfirm={() => {
          const target = cancelling;
          setCancelling(null);
          if (target?.renewal) void rowAction(target.id, () => paymentsApi.cancelRenewal(target.renewal!.id), PURCHASE_TEXTS.cancelRenewalFailed);
        }}
        onHide={() => setCancelling(null)}
      >
        {PURCHASE_TEXTS.cancelRenewalConfirm}
      </ConfirmModal>
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
