/**
 * Admin › Compras › Detalhes: what a purchase carries for the fiscal side — the buyer's billing
 * details as they were when bought, the NFS-e's state and links (or the provider's message), and
 * the PDF receipt to download.
 */
import Modal from 'react-bootstrap/Modal';
import Button from 'react-bootstrap/Button';
import { BillingDetailsList } from '../components/BillingDetailsList';
import type { AdminPurchase } from '../api/payments';
import { FiscalNoteLine, ReceiptButton } from '../components/FiscalDocuments';

export function PurchaseDetailModal({ purchase, nfseConfigured, onHide }: { purchase: AdminPurchase | null; nfseConfigured: boolean; onHide(): void }) {
  const b = purchase?.billing ?? null;
  return (
    <Modal show={purchase !== null} onHide={onHide} centered aria-labelledby="purchase-detail-title" data-testid="purchase-detail">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="purchase-detail-title" as="h2" className="h5">
          Compra {purchase?.planSnapshot.name} · {purchase?.formattedAmount}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <h3 className="h6">Comprador (dados de faturamento da compra)</h3>
        {b ? (
          <BillingDetailsList details={b} className="small mb-3" testId="purchase-billing" />
        ) : (
          <p className="small text-body-secondary">Compra feita antes dos dados de faturamento: nenhum registrado.</p>
        )}
        <h3 className="h6">Nota fiscal de serviço</h3>
        {purchase?.fiscalNote ? (
          <FiscalNoteLine purchase={purchase} />
        ) : (
          <p className="small text-body-secondary" data-testid="purchase-no-nfse">
            {nfseConfigured ? 'Nenhuma NFS-e pedida para esta compra (só compras aprovadas em reais têm uma).' : 'Nenhum emissor de NFS-e configurado.'}
          </p>
        )}
      </Modal.Body>
      <Modal.Footer>
        {purchase && <ReceiptButton purchase={purchase} />}
        <Button variant="secondary" onClick={onHide}>
          Fechar
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
