import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { formatMoney, isValidPixCode, PAYMENT_MESSAGES, type ApiPixPayment } from '@aabify/shared';
import { isApiRequestError } from '../../api/client';
import { paymentsApi } from '../../api/payments';
import { formatCountdown } from '../../lib/format';
import { PURCHASE_TEXTS } from '../../lib/purchases';
import { toast } from '../../stores/toasts';
import { usePaymentConfig } from './usePaymentConfig';
import { PIX_PHASE_MESSAGES, type PixPhase } from './usePixPolling';

export const COPY_CONFIRMATION_MS = 2000;
export const COUNTDOWN_TICK_MS = 1000;

interface PixModalProps {
  payment: ApiPixPayment | null;
  planName: string;
  phase: PixPhase;
  checking: boolean;
  onCheck(): void;
  onClose(): void;
  onExpired(): void;
}

/**
 * The QR image, the copy-and-paste code with a 2 s confirmation, an mm:ss countdown and the
 * status. In the payments sandbox (GET /payments/config canSimulateApproval) a marked button
 * approves the charge (POST /payments/simulate-approval/{id}), then the payment is checked
 * at once (onCheck) and the usual flow shows the success.
 */
export function PixModal({ payment, planName, phase, checking, onCheck, onClose, onExpired }: PixModalProps) {
  const [copied, setCopied] = useState(false);
  const [simulating, setSimulating] = useState(false);
  const config = usePaymentConfig(payment?.id);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!payment) return;
    const t = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(t);
  }, [payment]);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(t);
  }, [copied]);
  // A PIX charge always carries its expiry; a payment without one never runs out here.
  const remaining = payment?.expiresAt ? Date.parse(payment.expiresAt) - now : Number.POSITIVE_INFINITY;
  useEffect(() => {
    if (payment && phase === 'polling' && remaining <= 0) onExpired();
  }, [payment, phase, remaining, onExpired]);

  const copy = async () => {
    if (!payment) return;
    try {
      await navigator.clipboard.writeText(payment.pixCopyPaste);
      setCopied(true);
    } catch {
      toast.error(PAYMENT_MESSAGES.copyFailed);
    }
  };
  const simulate = async () => {
    if (!payment) return;
    setSimulating(true);
    try {
      await paymentsApi.simulateApproval(payment.id);
      onCheck();
    } catch (e) {
      const server = isApiRequestError(e) ? e.serverMessage : undefined;
      toast.error(server ? `${PURCHASE_TEXTS.simulateFailed}: ${server}` : PURCHASE_TEXTS.simulateFailed);
    } finally {
      setSimulating(false);
    }
  };
  const message = PIX_PHASE_MESSAGES[phase];
  const canSimulate = Boolean(config?.canSimulateApproval) && payment?.provider === 'sandbox' && (phase === 'polling' || phase === 'timeout');
  const validCode = payment ? isValidPixCode(payment.pixCopyPaste) : false;
  return (
    <Modal show={payment !== null} onHide={onClose} centered aria-labelledby="pix-title" backdrop="static">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="pix-title" as="h2" className="h5">
          Pagamento via PIX
        </Modal.Title>
      </Modal.Header>
      {payment && (
        <Modal.Body className="text-center" data-testid="pix-modal" data-payment-id={payment.id}>
          <p className="mb-1">{planName}</p>
          <p className="fs-4 fw-bold mb-3">{formatMoney(payment.amountCents, payment.currency)}</p>
          <img className="pix-qr mb-3" src={`data:image/png;base64,${payment.qrCodeBase64}`} alt="QR Code PIX para pagamento" />
          <div className="text-start">
            <label htmlFor="pix-code" className="form-label small">
              PIX copia e cola
            </label>
            <textarea id="pix-code" className="form-control pix-code mb-2" rows={3} readOnly value={payment.pixCopyPaste} data-testid="pix-code" />
            {!validCode && <div className="small text-warning-emphasis mb-2">O código PIX recebido parece inválido; use o QR Code.</div>}
            <Button variant={copied ? 'success' : 'outline-primary'} className="w-100" onClick={copy} data-testid="pix-copy">
              {copied ? 'Código copiado!' : 'Copiar código PIX'}
            </Button>
          </div>
          <div className="d-flex justify-content-center align-items-center gap-2 mt-3" aria-live="polite">
            {phase === 'polling' && (
              <>
                <Spinner size="sm" aria-hidden="true" />
                <span>Aguardando pagamento…</span>
                <Badge bg="secondary" data-testid="pix-countdown" aria-label="Tempo restante para pagar">
                  {formatCountdown(remaining)}
                </Badge>
              </>
            )}
            {phase === 'approved' && <span className="text-success fw-semibold">Pagamento aprovado!</span>}
          </div>
          {message && (
            <Alert variant={phase === 'timeout' ? 'warning' : 'danger'} className="mt-3 mb-0" data-testid="pix-message">
              {message}
            </Alert>
          )}
          {canSimulate && (
            <div className="border border-warning border-2 rounded p-2 mt-3" data-testid="pix-sandbox">
              <Badge bg="warning" text="dark" className="mb-2">
                Sandbox
              </Badge>
              <p className="small mb-2" id="pix-sandbox-hint">
                {PURCHASE_TEXTS.simulateHint}
              </p>
              <Button variant="warning" className="w-100" onClick={() => void simulate()} disabled={simulating || checking} aria-describedby="pix-sandbox-hint" data-testid="pix-simulate">
                {simulating && <Spinner size="sm" className="me-2" aria-hidden="true" />}
                {PURCHASE_TEXTS.simulate}
              </Button>
            </div>
          )}
        </Modal.Body>
      )}
      <Modal.Footer>
        {(phase === 'timeout' || phase === 'polling') && (
          <Button variant="outline-secondary" onClick={onCheck} disabled={checking} data-testid="pix-check">
            {checking && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Verificar pagamento
          </Button>
        )}
        <Button variant="secondary" onClick={onClose}>
          Fechar
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
