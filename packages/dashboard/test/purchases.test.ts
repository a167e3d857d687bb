import { expect } from 'chai';
import type { ApiPurchase } from '@aabify/shared';
import {
  PURCHASE_TEXTS,
  REFUND_REASON_MAX,
  adminPurchaseActions,
  canCancelRenewal,
  canResumePayment,
  purchaseMethodText,
  isPurchaseStatus,
  paymentStatusPath,
  purchaseDetail,
  purchaseReason,
  purchaseStatusDate,
  purchaseStatusLabel,
  refundReasonOf,
} from '../src/lib/purchases';
import { pendingFor, plansOpenWithAccess, type PendingPayment } from '../src/pages/plans/pendingPayment';

const base: ApiPurchase = {
  id: 'pu1',
  _id: 'pu1',
  userId: 'u1',
  planId: 'pl1',
  paymentId: 'pa1',
  amount: 19.9,
  amountCents: 1990,
  currency: 'BRL',
  formattedAmount: 'R$ 19,90',
  planSnapshot: { name: 'Pacote 10', type: 'credit', credits: 10, duration: null, priceCents: 1990, currency: 'BRL' },
  status: 'pending',
  statusLabel: 'Pendente',
  provider: 'sandbox',
  method: 'pix',
  methodLabel: 'PIX',
  installments: null,
  checkoutUrl: null,
  boletoUrl: null,
  renewal: null,
  appliedAt: null,
  approvedAt: null,
  rejectedAt: null,
  cancelledAt: null,
  refundedAt: null,
  rejectionReason: null,
  refundReason: null,
  notes: null,
  billing: null,
  receiptAvailable: false,
  fiscalNote: null,
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:00:00.000Z',
};
const purchase = (over: Partial<ApiPurchase>): ApiPurchase => ({ ...base, ...over });

describe('purchase screens: display rules', () => {
  it('purchaseStatusLabel_serverLabelFirstThenPtBrFallback', () => {
    expect(purchaseStatusLabel({ status: 'approved', statusLabel: 'Aprovado' })).to.equal('Aprovado');
    expect(purchaseStatusLabel({ status: 'refunded', statusLabel: '' })).to.equal('Reembolsado');
    expect(purchaseStatusLabel({ status: 'cancelled', statusLabel: '' })).to.equal('Cancelado');
  });

  it('purchaseStatusDate_eachFinalStatus_itsOwnDate_pendingNone', () => {
    const at = '2025-02-03T04:05:06.000Z';
    expect(purchaseStatusDate(purchase({ status: 'approved', approvedAt: at }))).to.deep.equal({ label: 'Aprovada em', at });
    expect(purchaseStatusDate(purchase({ status: 'refunded', approvedAt: '2025-01-01T00:00:00.000Z', refundedAt: at }))).to.deep.equal({ label: 'Reembolsada em', at });
    expect(purchaseStatusDate(purchase({ status: 'cancelled', cancelledAt: at }))).to.deep.equal({ label: 'Cancelada em', at });
    expect(purchaseStatusDate(purchase({ status: 'rejected', rejectedAt: at }))).to.deep.equal({ label: 'Rejeitada em', at });
    expect(purchaseStatusDate(purchase({ status: 'pending' }))).to.equal(null);
    expect(purchaseStatusDate(purchase({ status: 'approved', approvedAt: null }))).to.equal(null);
  });

  it('purchaseDetail_creditsAndMonths_singularAndPlural', () => {
    expect(purchaseDetail(base)).to.equal('10 créditos');
    expect(purchaseDetail(purchase({ planSnapshot: { ...base.planSnapshot, credits: 1 } }))).to.equal('1 crédito');
    const sub = { ...base.planSnapshot, type: 'subscription' as const, credits: null };
    expect(purchaseDetail(purchase({ planSnapshot: { ...sub, duration: 1 } }))).to.equal('1 mês de assinatura');
    expect(purchaseDetail(purchase({ planSnapshot: { ...sub, duration: 3 } }))).to.equal('3 meses de assinatura');
    expect(purchaseDetail(purchase({ planSnapshot: { ...sub, duration: null } }))).to.equal('1 mês de assinatura');
  });

  it('purchaseReason_refundAndRejectionOnly', () => {
    expect(purchaseReason(purchase({ status: 'refunded', refundReason: 'Pedido do cliente' }))).to.equal('Pedido do cliente');
    expect(purchaseReason(purchase({ status: 'rejected', rejectionReason: 'Recusado' }))).to.equal('Recusado');
    expect(purchaseReason(purchase({ status: 'approved', refundReason: 'x' }))).to.equal(null);
    expect(purchaseReason(purchase({ status: 'refunded', refundReason: null }))).to.equal(null);
  });

  it('isPurchaseStatus_knownStatusesOnly', () => {
    expect(isPurchaseStatus('refunded')).to.equal(true);
    expect(isPurchaseStatus('')).to.equal(false);
    expect(isPurchaseStatus('paid')).to.equal(false);
    expect(isPurchaseStatus(undefined)).to.equal(false);
  });
});

describe('purchase screens: actions', () => {
  it('adminPurchaseActions_pendingSandbox_approveAndSyncNoRefund', () => {
    expect(adminPurchaseActions({ status: 'pending', provider: 'sandbox' })).to.deep.equal({ approve: true, sync: true, refund: false });
  });
  it('adminPurchaseActions_pendingMercadoPago_noApprove', () => {
    expect(adminPurchaseActions({ status: 'pending', provider: 'mercadopago' })).to.deep.equal({ approve: false, sync: true, refund: false });
  });
  it('adminPurchaseActions_approved_refundAndSync', () => {
    expect(adminPurchaseActions({ status: 'approved', provider: 'sandbox' })).to.deep.equal({ approve: false, sync: true, refund: true });
    expect(adminPurchaseActions({ status: 'approved', provider: 'mercadopago' })).to.deep.equal({ approve: false, sync: true, refund: true });
  });
  it('adminPurchaseActions_manualGrant_nothingToCallAtAProvider', () => {
    expect(adminPurchaseActions({ status: 'approved', provider: 'manual' })).to.deep.equal({ approve: false, sync: false, refund: false });
  });
  it('adminPurchaseActions_finalStatuses_onlySync', () => {
    for (const status of ['refunded', 'cancelled', 'rejected'] as const) {
      expect(adminPurchaseActions({ status, provider: 'sandbox' }), status).to.deep.equal({ approve: false, sync: true, refund: false });
    }
  });

  it('canResumePayment_pendingWithPaymentOnly', () => {
    expect(canResumePayment(base)).to.equal(true);
    expect(canResumePayment(purchase({ paymentId: null }))).to.equal(false);
    expect(canResumePayment(purchase({ status: 'approved' }))).to.equal(false);
    expect(canResumePayment(purchase({ provider: 'manual' }))).to.equal(false);
    expect(canResumePayment(purchase({ method: 'boleto' }))).to.equal(false);
    expect(canResumePayment(purchase({ method: 'card' }))).to.equal(false);
  });

  it('purchaseMethodText_installmentsOnlyForCardsInMoreThanOne', () => {
    expect(purchaseMethodText(base)).to.equal('PIX');
    expect(purchaseMethodText(purchase({ method: 'card', methodLabel: 'Cartão', installments: 3 }))).to.equal('Cartão · 3x');
    expect(purchaseMethodText(purchase({ method: 'card', methodLabel: 'Cartão', installments: 1 }))).to.equal('Cartão');
    expect(purchaseMethodText(purchase({ method: 'boleto', methodLabel: '' }))).to.equal('Boleto');
    expect(purchaseMethodText(purchase({ method: null, methodLabel: null }))).to.equal(null);
  });

  it('canCancelRenewal_activeOrPendingOnly', () => {
    const renewal = { id: 'r1', status: 'active', statusLabel: '', provider: 'sandbox', planId: 'pl1', planName: 'Mensal', amountCents: 2990, currency: 'BRL', formattedAmount: 'R$ 29,90', frequencyMonths: 1, checkoutUrl: null, lastChargedAt: null, lastFailureAt: null, lastFailureReason: null, cancelledAt: null, createdAt: base.createdAt } as const;
    expect(canCancelRenewal(base)).to.equal(false);
    expect(canCancelRenewal(purchase({ renewal }))).to.equal(true);
    expect(canCancelRenewal(purchase({ renewal: { ...renewal, status: 'pending' } }))).to.equal(true);
    expect(canCancelRenewal(purchase({ renewal: { ...renewal, status: 'cancelled' } }))).to.equal(false);
  });

  it('paymentStatusPath_carriesPurchaseAndPayment', () => {
    expect(paymentStatusPath(base)).to.equal('/payment-status?purchase_id=pu1&payment_id=pa1');
    expect(paymentStatusPath(purchase({ paymentId: null }))).to.equal('/payment-status?purchase_id=pu1');
  });

  it('refundReasonOf_trimsBlankToNothingAndLimits500', () => {
    expect(refundReasonOf('   ')).to.deep.equal({});
    expect(refundReasonOf('  Pedido do cliente  ')).to.deep.equal({ reason: 'Pedido do cliente' });
    expect(refundReasonOf('a'.repeat(REFUND_REASON_MAX))).to.deep.equal({ reason: 'a'.repeat(REFUND_REASON_MAX) });
    expect(refundReasonOf('a'.repeat(REFUND_REASON_MAX + 1))).to.deep.equal({ error: 'Motivo deve ter no máximo 500 caracteres' });
  });

  it('texts_ptBr', () => {
    expect(PURCHASE_TEXTS.simulate).to.equal('Simular pagamento aprovado (sandbox)');
    expect(PURCHASE_TEXTS.synced('Aprovado')).to.equal('Pagamento sincronizado: Aprovado');
  });
});

describe('remembered PIX payment', () => {
  const entry: PendingPayment = { paymentId: 'pa1', purchaseId: 'pu1', timestamp: 1, userId: 'u1' };
  it('pendingFor_sameUser_kept_otherUser_ignored', () => {
    expect(pendingFor(entry, 'u1')).to.equal(entry);
    expect(pendingFor(entry, 'u2')).to.equal(undefined);
    expect(pendingFor(undefined, 'u1')).to.equal(undefined);
  });
  it('pendingFor_entryWithoutBuyerOrNoUserGiven_counts', () => {
    const old = { paymentId: 'pa1', purchaseId: 'pu1', timestamp: 1 };
    expect(pendingFor(old, 'u2')).to.equal(old);
    expect(pendingFor(entry, undefined)).to.equal(entry);
  });
  it('plansOpenWithAccess_topUpOrPendingPayment', () => {
    expect(plansOpenWithAccess(null, false)).to.equal(false);
    expect(plansOpenWithAccess({}, false)).to.equal(false);
    expect(plansOpenWithAccess({ topUp: true }, false)).to.equal(true);
    expect(plansOpenWithAccess(null, true)).to.equal(true);
  });
});
