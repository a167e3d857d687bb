/**
 * Receipts and notas fiscais de serviço (NFS-e) as clients see them: the states of a purchase's
 * NFS-e with their pt-BR labels, and the texts of the receipt and of the fiscal screens.
 * docs/nfse.md tells how a note moves between the states.
 */

/**
 * processando: requested (or about to be) and not answered yet · autorizada: the municipality
 * issued it (PDF and XML links) · erro: refused, with the provider's message · cancelando: a
 * refund asked for its cancellation · cancelada: cancelled after a refund.
 */
export const FISCAL_NOTE_STATUSES = ['processando', 'autorizada', 'erro', 'cancelando', 'cancelada'] as const;
export type FiscalNoteStatus = (typeof FISCAL_NOTE_STATUSES)[number];

export const FISCAL_NOTE_STATUS_LABELS: Record<FiscalNoteStatus, string> = {
  processando: 'NFS-e em processamento',
  autorizada: 'NFS-e autorizada',
  erro: 'NFS-e com erro',
  cancelando: 'NFS-e em cancelamento',
  cancelada: 'NFS-e cancelada',
};

/** A purchase's NFS-e as its buyer and admins see it. */
export interface ApiFiscalNote {
  status: FiscalNoteStatus;
  statusLabel: string;
  /** The note's number at the municipality, once authorized. */
  number: string | null;
  verificationCode: string | null;
  /** The municipality's (or provider's) page of the note, and its XML. */
  pdfUrl: string | null;
  xmlUrl: string | null;
  /** The provider's message when it refused the note (or its cancellation). */
  errorMessage: string | null;
  authorizedAt: string | null;
  cancelledAt: string | null;
}

/** Whether a purchase has a receipt: approved, or refunded after it (marked as such). */
export function hasReceipt(status: string): boolean {
  return status === 'approved' || status === 'refunded';
}

export const FISCAL_MESSAGES = {
  receiptTitle: 'Recibo de compra',
  receiptRefunded: 'Estornado',
  receiptRefundedNote: 'Esta compra foi estornada: o valor foi devolvido ao comprador.',
  receiptSeller: 'Vendedor',
  receiptBuyer: 'Comprador',
  receiptPurchase: 'Compra',
  receiptPlan: 'Plano',
  receiptAmount: 'Valor',
  receiptMethod: 'Forma de pagamento',
  receiptDate: 'Data do pagamento (horário de Brasília)',
  receiptId: 'Identificador da compra',
  receiptNoBilling: 'Dados de faturamento não informados nesta compra.',
  receiptSellerMissing: 'Dados do vendedor não configurados.',
  receiptFooter: 'Este recibo comprova o pagamento. A nota fiscal de serviço (NFS-e), quando emitida, é o documento fiscal.',
  receiptUnavailable: 'Só compras aprovadas (ou estornadas depois) têm recibo.',
  receiptDownload: 'Baixar recibo',
  nfseNotConfigured:
    'Nenhum emissor de NFS-e configurado: nenhuma nota fiscal é pedida. Configure o token da Focus NFe e os dados fiscais em Configurações › Fiscal.',
  nfseConfigured: 'NFS-e emitidas pela Focus NFe a cada compra aprovada.',
  nfseCancelJustification: 'Compra estornada: valor devolvido ao tomador do serviço.',
  nfseProviderUnreachable: 'O emissor de NFS-e não respondeu; nova tentativa em instantes.',
  nfseGaveUp: 'O emissor de NFS-e não respondeu depois de várias tentativas.',
  nfseMissingSettings: (fields: string) => `Dados fiscais incompletos em Configurações › Fiscal: ${fields}.`,
  nfseNoBilling: 'A compra não tem dados de faturamento do comprador.',
} as const;

const BRASILIA_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function brasiliaParts(date: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const parts = Object.fromEntries(BRASILIA_PARTS.formatToParts(date).map((p) => [p.type, p.value]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** A moment in Brasília time as receipts print it: '28/11/2026 14:05'. */
export function formatBrasiliaDateTime(date: Date): string {
  const p = brasiliaParts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** A moment as ISO 8601 in Brasília's offset ('2026-11-28T14:05:00-03:00'); Brazil has kept UTC−3 all year since 2019. */
export function brasiliaIsoDateTime(date: Date): string {
  const p = brasiliaParts(date);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}-03:00`;
}
