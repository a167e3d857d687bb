/**
 * A purchase's fiscal documents as "Minhas compras" and Admin › Compras show them: the PDF
 * receipt's download (approved, or refunded after it) and the NFS-e's state with its links.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { FISCAL_MESSAGES, type ApiPurchase } from '@aabify/shared';
import { receiptApi } from '../api/fiscal';
import { toast } from '../stores/toasts';

export const FISCAL_TEXTS = {
  receiptFailed: 'Não foi possível baixar o recibo. Tente novamente.',
  receiptSaved: (name: string) => `${name} baixado.`,
  nfsePdf: 'Ver NFS-e',
  nfseXml: 'XML da NFS-e',
} as const;

export function ReceiptButton({ purchase, label }: { purchase: Pick<ApiPurchase, 'id' | 'receiptAvailable' | 'planSnapshot'>; label?: string }) {
  const [busy, setBusy] = useState(false);
  if (!purchase.receiptAvailable) return null;
  const download = async () => {
    setBusy(true);
    try {
      toast.success(FISCAL_TEXTS.receiptSaved(await receiptApi.download(purchase.id)));
    } catch {
      toast.error(FISCAL_TEXTS.receiptFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => void download()} aria-label={`${FISCAL_MESSAGES.receiptDownload}: ${purchase.planSnapshot.name}`} data-testid="receipt-download">
      {busy && <Spinner size="sm" className="me-1" aria-hidden="true" />}
      {label ?? FISCAL_MESSAGES.receiptDownload}
    </Button>
  );
}

const NOTE_TONE: Record<string, string> = {
  processando: 'text-body-secondary',
  autorizada: 'text-success-emphasis',
  erro: 'text-danger',
  cancelando: 'text-body-secondary',
  cancelada: 'text-body-secondary',
};

/** The NFS-e line: its state, number, links, and the provider's message on an error. */
export function FiscalNoteLine({ purchase }: { purchase: Pick<ApiPurchase, 'fiscalNote'> }) {
  const note = purchase.fiscalNote;
  if (!note) return null;
  return (
    <div className="small" data-testid="fiscal-note" data-nfse-status={note.status}>
      <span className={NOTE_TONE[note.status]}>
        {note.statusLabel}
        {note.number ? ` nº ${note.number}` : ''}
      </span>
      {note.pdfUrl && (
        <>
          {' · '}
          <a href={note.pdfUrl} target="_blank" rel="noreferrer noopener" data-testid="nfse-pdf">
            {FISCAL_TEXTS.nfsePdf}
          </a>
        </>
      )}
      {note.xmlUrl && (
        <>
          {' · '}
          <a href={note.xmlUrl} target="_blank" rel="noreferrer noopener" data-testid="nfse-xml">
            {FISCAL_TEXTS.nfseXml}
          </a>
        </>
      )}
      {note.errorMessage && <div className="text-danger text-break" data-testid="nfse-error">{note.errorMessage}</div>}
    </div>
  );
}
