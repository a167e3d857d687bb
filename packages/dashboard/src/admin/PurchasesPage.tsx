/**
 * 'Compras' (/admin/purchases): every purchase with its buyer (GET /admin/payments/purchases),
 * status and payment-method filters, page sizes and pages; each row shows the method (PIX,
 * cartão with its installments, boleto), the provider and the renewal's state; per row 'Aprovar' (a pending sandbox charge, e.g. a
 * PIX nobody can pay in the sandbox), 'Sincronizar' (read the payment back from its provider)
 * 'Reembolsar' (an approved purchase, after a confirmation with an optional reason; the
 * unspent plan is taken back) and 'Cancelar renovação' (the provider stops charging; the paid
 * period stays; audited as an admin action); 'Detalhes' shows the buyer's billing details as
 * bought, the NFS-e and the receipt. A notice says so when no NFS-e provider is configured. See
 * docs/payments.md and docs/nfse.md.
 */
import { useCallback, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, PAYMENT_STATUS_LABELS, PURCHASE_STATUSES, countOf, formatNumber, type PaymentMethod, type PurchaseStatus } from '@aabify/shared';
import { adminPaymentsApi, paymentsApi, type AdminPurchase, type AdminPurchaseListResponse } from '../api/payments';
import { DataList } from '../components/DataList';
import { PageHeader } from '../components/PageHeader';
import { PaymentProviderNotice } from './PaymentsStatus';
import { Truncate } from '../components/Truncate';
import { formatDateTime } from '../lib/format';
import {
  PROVIDER_LABELS,
  PURCHASE_PAGE_SIZES,
  PURCHASE_TEXTS,
  REFUND_REASON_MAX,
  adminPurchaseActions,
  canCancelRenewal,
  isPurchaseStatus,
  purchaseDetail,
  purchaseMethodText,
  refundReasonOf,
} from '../lib/purchases';
import { toast } from '../stores/toasts';
import { useKeyedState } from '../lib/useKeyedState';
import { ConfirmModal, PageList, failureText } from './common';
import Alert from 'react-bootstrap/Alert';
import { PurchaseDetailModal } from './PurchaseDetailModal';
import { PurchaseStatusCell } from '../components/PurchaseStatusCell';

type Action = 'approve' | 'sync' | 'refund' | 'cancelRenewal';

export default function PurchasesPage() {
  const [limit, setLimit] = useState<number>(PURCHASE_PAGE_SIZES[0]);
  const [status, setStatus] = useState<PurchaseStatus | ''>('');
  const [method, setMethod] = useState<PaymentMethod | ''>('');
  const [data, setData] = useState<AdminPurchaseListResponse | null>(null);
  const [busy, setBusy] = useState<{ id: string; action: Action } | null>(null);
  const [refunding, setRefunding] = useState<AdminPurchase | null>(null);
  const [stoppingRenewal, setStoppingRenewal] = useState<AdminPurchase | null>(null);
  const [reasonText, setReasonText] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [detail, setDetail] = useState<AdminPurchase | null>(null);

  const [page, setPage] = useKeyedState(JSON.stringify([status, method, limit]), 1);

  const load = useCallback(
    (signal?: AbortSignal) =>
      adminPaymentsApi.purchases({ page, limit, status, method }, signal).then(setData, (e: unknown) => {
        if (!signal?.aborted) toast.error(failureText(e, PURCHASE_TEXTS.loadFailed));
      }),
    [page, limit, status, method],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const run = async (p: AdminPurchase, action: Action, call: () => Promise<string>, failure: string) => {
    setBusy({ id: p.id, action });
    try {
      toast.success(await call(), { admin: true });
      await load();
      return true;
    } catch (e) {
      toast.error(failureText(e, failure));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const approve = (p: AdminPurchase) =>
    run(
      p,
      'approve',
      async () => {
        const r = await adminPaymentsApi.approve(p.id);
        return r.changed ? PURCHASE_TEXTS.approved : PURCHASE_TEXTS.alreadyApproved;
      },
      PURCHASE_TEXTS.approveFailed,
    );

  const sync = (p: AdminPurchase) =>
    run(
      p,
      'sync',
      async () => {
        const r = await adminPaymentsApi.sync(p.id);
        const label = isPurchaseStatus(r.payment.status) ? PAYMENT_STATUS_LABELS[r.payment.status] : r.payment.statusLabel;
        return r.changed ? PURCHASE_TEXTS.synced(label) : PURCHASE_TEXTS.syncUnchanged(label);
      },
      PURCHASE_TEXTS.syncFailed,
    );

  const openRefund = (p: AdminPurchase) => {
    setReasonText('');
    setReasonError(undefined);
    setRefunding(p);
  };

  const refund = async () => {
    const p = refunding;
    if (!p) return;
    const { reason, error } = refundReasonOf(reasonText);
    if (error) {
      setReasonError(error);
      return;
    }
    const ok = await run(
      p,
      'refund',
      async () => {
        await adminPaymentsApi.refund(p.id, reason);
        return PURCHASE_TEXTS.refunded;
      },
      PURCHASE_TEXTS.refundFailed,
    );
    if (ok) setRefunding(null);
  };

  const cancelRenewal = async () => {
    const p = stoppingRenewal;
    if (!p?.renewal) return;
    const renewalId = p.renewal.id;
    const ok = await run(p, 'cancelRenewal', async () => (await paymentsApi.cancelRenewal(renewalId)).message, PURCHASE_TEXTS.cancelRenewalFailed);
    if (ok) setStoppingRenewal(null);
  };

  const isBusy = (p: AdminPurchase, action: Action) => busy?.id === p.id && busy.action === action;
  const spinner = (on: boolean) => on && <Spinner size="sm" className="me-1" aria-hidden="true" />;

  return (
    <>
      <PageHeader title="Compras" subtitle="Todas as compras, as mais recentes primeiro" />
      <PaymentProviderNotice />
      {data && !data.nfse.configured && (
        <Alert variant="info" className="small" data-testid="nfse-not-configured">
          {data.nfse.message}
        </Alert>
      )}
      <Card className="mb-3">
        <Card.Body className="row g-2 align-items-end">
          <div className="col-sm-6 col-md-4">
            <Form.Label htmlFor="purchases-status">Status</Form.Label>
            <Form.Select id="purchases-status" value={status} onChange={(e) => setStatus(isPurchaseStatus(e.target.value) ? e.target.value : '')}>
              <option value="">Todos</option>
              {PURCHASE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {PAYMENT_STATUS_LABELS[s]}
                </option>
              ))}
            </Form.Select>
          </div>
          <div className="col-sm-6 col-md-3">
            <Form.Label htmlFor="purchases-method">Forma de pagamento</Form.Label>
            <Form.Select id="purchases-method" value={method} onChange={(e) => setMethod((PAYMENT_METHODS as readonly string[]).includes(e.target.value) ? (e.target.value as PaymentMethod) : '')}>
              <option value="">Todas</option>
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </Form.Select>
          </div>
          <div className="col-sm-6 col-md-2">
            <Form.Label htmlFor="purchases-limit">Por página</Form.Label>
            <Form.Select id="purchases-limit" value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
              {PURCHASE_PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Form.Select>
          </div>
          <div className="col-md-3 text-md-end">
            <Button variant="outline-secondary" onClick={() => void load()} aria-label="Atualizar lista de compras">
              Atualizar
            </Button>
          </div>
        </Card.Body>
      </Card>
      <DataList<AdminPurchase>
        items={data ? data.purchases : null}
        rowKey={(p) => p.id}
        testId="purchases-table"
        caption="Compras"
        empty={<span data-testid="purchases-empty">{PURCHASE_TEXTS.empty}</span>}
        rowProps={(p) => ({ 'data-testid': 'purchase-row', 'data-purchase-id': p.id, 'data-status': p.status, 'data-buyer': p.user?.email ?? '' })}
        columns={[
          { key: 'created', header: 'Criada em', className: 'text-nowrap small', render: (p) => formatDateTime(p.createdAt) },
          { key: 'buyer', header: 'Comprador', primary: true, render: (p) => <Truncate text={p.user?.email ?? 'Conta removida'} max="200px" /> },
          {
            key: 'plan',
            header: 'Plano',
            render: (p) => (
              <>
                <div className="fw-semibold">{p.planSnapshot.name}</div>
                <div className="small text-body-secondary">{purchaseDetail(p)}</div>
              </>
            ),
          },
          { key: 'amount', header: 'Valor', className: 'text-nowrap', render: (p) => p.formattedAmount },
          {
            key: 'status',
            header: 'Status',
            render: (p) => <PurchaseStatusCell purchase={p} />,
          },
          {
            key: 'method',
            header: 'Pagamento',
            render: (p) => (
              <>
                <div data-testid="purchase-method">{purchaseMethodText(p) ?? '—'}</div>
                <div className="small text-body-secondary">{PROVIDER_LABELS[p.provider] ?? p.provider}</div>
                {p.renewal && (
                  <div className="small" data-testid="purchase-renewal" data-renewal-status={p.renewal.status}>
                    {p.renewal.statusLabel}
                  </div>
                )}
              </>
            ),
          },
        ]}
        actions={(p) => {
          const actions = adminPurchaseActions(p);
          const who = p.user?.email ?? 'Conta removida';
          return (
            <>
              <Button size="sm" variant="outline-primary" onClick={() => setDetail(p)} aria-label={`Detalhes da compra de ${who}`}>
                Detalhes
              </Button>
              {actions.approve && (
                <Button size="sm" variant="success" disabled={busy !== null} onClick={() => void approve(p)} aria-label={`Aprovar compra de ${who}`}>
                  {spinner(isBusy(p, 'approve'))}
                  Aprovar
                </Button>
              )}
              {actions.sync && (
                <Button size="sm" variant="outline-secondary" disabled={busy !== null} onClick={() => void sync(p)} aria-label={`Sincronizar compra de ${who}`}>
                  {spinner(isBusy(p, 'sync'))}
                  Sincronizar
                </Button>
              )}
              {actions.refund && (
                <Button size="sm" variant="outline-danger" disabled={busy !== null} onClick={() => openRefund(p)} aria-label={`Reembolsar compra de ${who}`}>
                  Reembolsar
                </Button>
              )}
              {canCancelRenewal(p) && (
                <Button size="sm" variant="outline-danger" disabled={busy !== null} onClick={() => setStoppingRenewal(p)} aria-label={`${PURCHASE_TEXTS.cancelRenewal} de ${who}`} data-testid="purchase-cancel-renewal">
                  {PURCHASE_TEXTS.cancelRenewal}
                </Button>
              )}
            </>
          );
        }}
      />
      {data && (
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
          <span className="small text-body-secondary" data-testid="purchases-summary">
            {countOf(data.pagination.total, 'compra', 'compras')} · página {formatNumber(data.pagination.page)} de {formatNumber(Math.max(1, data.pagination.pages))}
          </span>
          <PageList page={data.pagination.page} totalPages={data.pagination.pages} onChange={setPage} label="Paginação das compras" max={5} />
        </div>
      )}
      <PurchaseDetailModal purchase={detail && (data?.purchases.find((p) => p.id === detail.id) ?? detail)} nfseConfigured={data?.nfse.configured ?? false} onHide={() => setDetail(null)} />
      <ConfirmModal
        show={stoppingRenewal !== null}
        title={PURCHASE_TEXTS.cancelRenewal}
        confirmLabel={PURCHASE_TEXTS.cancelRenewal}
        busy={stoppingRenewal !== null && isBusy(stoppingRenewal, 'cancelRenewal')}
        onConfirm={() => void cancelRenewal()}
        onHide={() => setStoppingRenewal(null)}
      >
        <p>
          Parar a renovação automática de <strong>{stoppingRenewal?.user?.email ?? 'Conta removida'}</strong> ({stoppingRenewal?.planSnapshot.name})? O provedor deixa de
          cobrar; o período já pago continua valendo até o fim. O cliente vê a renovação cancelada em Minhas compras.
        </p>
      </ConfirmModal>
      <ConfirmModal
        show={refunding !== null}
        title="Reembolsar pagamento"
        confirmLabel="Reembolsar"
        busy={refunding !== null && isBusy(refunding, 'refund')}
        onConfirm={() => void refund()}
        onHide={() => setRefunding(null)}
      >
        <p>
          Reembolsar <strong>{refunding?.formattedAmount}</strong> de <strong>{refunding?.user?.email ?? 'Conta removida'}</strong> ({refunding?.planSnapshot.name})?
          O valor é devolvido pelo provedor de pagamento e o que não foi usado do plano é retirado da conta.
        </p>
        <Form.Group controlId="refund-reason">
          <Form.Label>Motivo (opcional)</Form.Label>
          <Form.Control
            as="textarea"
            rows={3}
            value={reasonText}
            maxLength={REFUND_REASON_MAX + 100}
            isInvalid={Boolean(reasonError)}
            onChange={(e) => {
              setReasonText(e.target.value);
              setReasonError(undefined);
            }}
            aria-describedby="refund-reason-help"
          />
          <Form.Text id="refund-reason-help" muted>
            {reasonText.trim().length}/{REFUND_REASON_MAX} caracteres
          </Form.Text>
          <Form.Control.Feedback type="invalid">{reasonError}</Form.Control.Feedback>
        </Form.Group>
      </ConfirmModal>
    </>
  );
}
