/**
 * What the purchase screens show ('Minhas compras' and the admin 'Compras'): pt-BR texts,
 * status badges, the date that matters for each status, what a purchase describes, and which
 * actions a row offers. Pure functions, unit-tested.
 */
import { PAYMENT_METHOD_LABELS, PAYMENT_PROVIDER_LABELS, PAYMENT_STATUS_LABELS, PURCHASE_STATUSES, type ApiPurchase, type PurchaseStatus } from '@aabify/shared';

export const PURCHASE_TEXTS = {
  simulate: 'Simular pagamento aprovado (sandbox)',
  simulateHint: 'Modo sandbox: nenhum pagamento real é feito.',
  simulateFailed: 'Erro ao simular pagamento',
  loadFailed: 'Erro ao carregar compras',
  empty: 'Nenhuma compra encontrada',
  approveFailed: 'Erro ao aprovar pagamento',
  approved: 'Compra aprovada! O plano foi aplicado ao comprador.',
  alreadyApproved: 'A compra já estava aprovada',
  syncFailed: 'Erro ao sincronizar pagamento',
  synced: (label: string) => `Pagamento sincronizado: ${label}`,
  syncUnchanged: (label: string) => `Pagamento sincronizado, sem alterações (${label})`,
  refundFailed: 'Erro ao reembolsar pagamento',
  refunded: 'Pagamento reembolsado! O saldo não usado do plano foi retirado.',
  resumeFailed: 'Erro ao abrir o pagamento',
  cancelRenewal: 'Cancelar renovação',
  cancelRenewalConfirm: 'Cancelar a renovação automática? Nenhuma nova cobrança será feita; o período já pago continua valendo até o fim.',
  cancelRenewalFailed: 'Erro ao cancelar a renovação automática',
  simulateRenewal: 'Simular cobrança da renovação (sandbox)',
  simulateRenewalRefused: 'Simular cobrança recusada (sandbox)',
  simulateRenewalFailed: 'Erro ao simular a cobrança da renovação',
  payBoleto: 'Abrir boleto',
  backToCheckout: 'Continuar pagamento',
  boletoPending: 'Boleto aguardando pagamento: a confirmação pode levar até 3 dias úteis.',
} as const;

export const PURCHASE_PAGE_SIZES = [10, 25, 50] as const;
export const REFUND_REASON_MAX = 500;

export const PURCHASE_STATUS_VARIANTS: Record<PurchaseStatus, string> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
  cancelled: 'secondary',
  refunded: 'info',
};

export const PROVIDER_LABELS: Record<ApiPurchase['provider'], string> = PAYMENT_PROVIDER_LABELS;

export function isPurchaseStatus(v: unknown): v is PurchaseStatus {
  return typeof v === 'string' && (PURCHASE_STATUSES as readonly string[]).includes(v);
}

/** The badge text: the server's label, else ours, else the raw status. */
export function purchaseStatusLabel(p: Pick<ApiPurchase, 'status' | 'statusLabel'>): string {
  return p.statusLabel || (isPurchaseStatus(p.status) ? PAYMENT_STATUS_LABELS[p.status] : String(p.status));
}

/** The date that goes with the current status ('Aprovada em …'), or none for a pending one. */
export function purchaseStatusDate(
  p: Pick<ApiPurchase, 'status' | 'approvedAt' | 'rejectedAt' | 'cancelledAt' | 'refundedAt'>,
): { label: string; at: string } | null {
  const pick = (label: string, at: string | null) => (at ? { label, at } : null);
  switch (p.status) {
    case 'approved':
      return pick('Aprovada em', p.approvedAt);
    case 'rejected':
      return pick('Rejeitada em', p.rejectedAt);
    case 'cancelled':
      return pick('Cancelada em', p.cancelledAt);
    case 'refunded':
      return pick('Reembolsada em', p.refundedAt);
    default:
      return null;
  }
}

/** '10 créditos', '1 mês de assinatura', '3 meses de assinatura'. */
export function purchaseDetail(p: Pick<ApiPurchase, 'planSnapshot'>): string {
  const s = p.planSnapshot;
  if (s.type === 'subscription') {
    const months = s.duration ?? 1;
    return `${months} ${months === 1 ? 'mês' : 'meses'} de assinatura`;
  }
  const credits = s.credits ?? 0;
  return `${credits} ${credits === 1 ? 'crédito' : 'créditos'}`;
}

/** Why a purchase ended as it did (refund or rejection reason), when known. */
export function purchaseReason(p: Pick<ApiPurchase, 'status' | 'refundReason' | 'rejectionReason'>): string | null {
  if (p.status === 'refunded') return p.refundReason || null;
  if (p.status === 'rejected') return p.rejectionReason || null;
  return null;
}

export interface AdminPurchaseActions {
  /** Pending sandbox charges only (the server refuses other providers). */
  approve: boolean;
  /** Anything paid through a provider (a manual grant has no payment to read). */
  sync: boolean;
  /** Approved and paid through a provider. */
  refund: boolean;
}

export function adminPurchaseActions(p: Pick<ApiPurchase, 'status' | 'provider'>): AdminPurchaseActions {
  const viaProvider = p.provider !== 'manual';
  return {
    approve: p.status === 'pending' && p.provider === 'sandbox',
    sync: viaProvider,
    refund: p.status === 'approved' && viaProvider,
  };
}

/** A buyer can go back to the PIX of a pending PIX purchase that has a payment (a card or boleto is followed at its provider). */
export function canResumePayment(p: Pick<ApiPurchase, 'status' | 'provider' | 'paymentId' | 'method'>): boolean {
  return p.status === 'pending' && p.provider !== 'manual' && Boolean(p.paymentId) && p.method === 'pix';
}

/** 'PIX', 'Cartão · 3x', 'Boleto'; null while a hosted checkout has no payment yet. */
export function purchaseMethodText(p: Pick<ApiPurchase, 'method' | 'methodLabel' | 'installments'>): string | null {
  if (!p.method) return null;
  const label = p.methodLabel || PAYMENT_METHOD_LABELS[p.method];
  return p.method === 'card' && p.installments && p.installments > 1 ? `${label} · ${p.installments}x` : label;
}

/** A renewal still charging (or waiting for its authorization) can be stopped. */
export function canCancelRenewal(p: Pick<ApiPurchase, 'renewal'>): boolean {
  return p.renewal !== null && p.renewal.status !== 'cancelled';
}

/** The return page of a purchase: /payment-status?purchase_id=…&payment_id=… */
export function paymentStatusPath(p: Pick<ApiPurchase, 'id' | 'paymentId'>): string {
  const q = new URLSearchParams({ purchase_id: p.id });
  if (p.paymentId) q.set('payment_id', p.paymentId);
  return `/payment-status?${q.toString()}`;
}

/** A trimmed refund reason, undefined when blank; an error text when too long. */
export function refundReasonOf(text: string): { reason?: string; error?: string } {
  const reason = text.trim();
  if (reason.length > REFUND_REASON_MAX) return { error: `Motivo deve ter no máximo ${REFUND_REASON_MAX} caracteres` };
  return reason ? { reason } : {};
}
