/**
 * A purchase's PDF receipt (docs/payments.md, "Receipts"): seller from the Fiscal settings,
 * buyer from the purchase's own copy of the billing details, plan, amount in R$, method, the
 * payment's date in Brasília time and the purchase id. A refunded purchase keeps its receipt,
 * marked "Estornado". Written with pdfkit's standard Helvetica, whose WinAnsi encoding has every
 * Portuguese letter (ç, ã, é …); nothing is read from disk but pdfkit's own font metrics.
 */
import {
  FISCAL_MESSAGES as M,
  PAYMENT_METHOD_LABELS,
  billingAddressLine,
  formatBrasiliaDateTime,
  formatMoney,
  formatTaxId,
  taxIdKind,
  type BillingDetails,
  type Currency,
  type PaymentMethod,
} from '@aabify/shared';
import type { SellerData } from './seller.js';

export interface ReceiptData {
  purchaseId: string;
  planName: string;
  amountCents: number;
  currency: Currency;
  method: PaymentMethod | null;
  installments: number | null;
  paidAt: Date;
  refunded: boolean;
  buyer: BillingDetails | null;
  /** The account's e-mail, shown when the purchase predates billing details. */
  accountEmail: string;
  seller: SellerData;
}

/** 'Cartão de crédito (3x)', 'PIX', or 'Não informado'. */
export function methodText(method: PaymentMethod | null, installments: number | null): string {
  if (!method) return 'Não informado';
  const label = PAYMENT_METHOD_LABELS[method];
  return installments && installments > 1 ? `${label} (${installments}x)` : label;
}

function taxIdLine(document: string): string {
  return `${taxIdKind(document) === 'cnpj' ? 'CNPJ' : 'CPF'}: ${formatTaxId(document)}`;
}

/** The receipt as a PDF stream (pipe it; it ends by itself). */
export async function renderReceipt(data: ReceiptData): Promise<PDFKit.PDFDocument> {
  // pdfkit (with its fonts' code) is loaded on the first receipt: a module stays in the heap for
  // the process's life, and most processes never draw one.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${M.receiptTitle} ${data.purchaseId}`, Author: data.seller.name ?? 'aabify', Subject: M.receiptTitle },
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font('Helvetica-Bold').fontSize(20).text(M.receiptTitle, left, doc.y);
  if (data.refunded) {
    doc.moveDown(0.3).font('Helvetica-Bold').fontSize(16).fillColor('#b3261e').text(M.receiptRefunded.toUpperCase());
    doc.font('Helvetica').fontSize(10).text(M.receiptRefundedNote).fillColor('black');
  }
  doc.moveDown(1);

  const section = (title: string, lines: string[]) => {
    doc.font('Helvetica-Bold').fontSize(12).fillColor('black').text(title);
    doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.moveDown(0.4).font('Helvetica').fontSize(10);
    for (const line of lines) doc.text(line, { width });
    doc.moveDown(0.8);
  };

  const seller = data.seller;
  section(
    M.receiptSeller,
    seller.name || seller.cnpj
      ? [seller.name ?? '', seller.cnpj ? `CNPJ: ${formatTaxId(seller.cnpj)}` : '', seller.address ?? '', seller.email ?? ''].filter((l) => l !== '')
      : [M.receiptSellerMissing],
  );

  const buyer = data.buyer;
  section(
    M.receiptBuyer,
    buyer ? [buyer.name, taxIdLine(buyer.document), buyer.email, billingAddressLine(buyer)] : [data.accountEmail, M.receiptNoBilling],
  );

  section(M.receiptPurchase, [
    `${M.receiptPlan}: ${data.planName}`,
    `${M.receiptAmount}: ${formatMoney(data.amountCents, data.currency)}`,
    `${M.receiptMethod}: ${methodText(data.method, data.installments)}`,
    `${M.receiptDate}: ${formatBrasiliaDateTime(data.paidAt)}`,
    `${M.receiptId}: ${data.purchaseId}`,
  ]);

  doc.moveDown(1).font('Helvetica-Oblique').fontSize(9).fillColor('#555555').text(M.receiptFooter, { width });
  doc.end();
  return doc;
}
