/**
 * The billing details step of a purchase: a purchase cannot start without them (a Brazilian
 * receipt and NFS-e name the buyer). Saved ones show as a line above the plans, with "Alterar"
 * opening the form prefilled; missing ones open the form when the buyer picks a way to pay, and
 * the purchase goes on once they are saved.
 */
import { useCallback, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Modal from 'react-bootstrap/Modal';
import type { ApiBillingDetails } from '@aabify/shared';
import { billingApi } from '../../api/fiscal';
import { isApiRequestError } from '../../api/client';
import { BillingDetailsFormLazy } from '../../components/BillingDetailsFormLazy';

export interface BillingStep {
  /** Saved details; null when there are none; undefined while unknown. */
  saved: ApiBillingDetails | null | undefined;
  /** Runs `next` now unless details are known to be missing (then after the buyer saves them; the server refuses a purchase without them). */
  ensure(next: () => void): void;
  /** A refusal of the purchase for missing details opens the form, then retries; answers whether it was one. */
  handleRefusal(error: unknown, retry: () => void): boolean;
  edit(): void;
  modal: { show: boolean; onHide(): void; onSaved(details: ApiBillingDetails): void };
}

export function useBillingStep(): BillingStep {
  const [saved, setSaved] = useState<ApiBillingDetails | null | undefined>(undefined);
  const [asking, setAsking] = useState<{ next: (() => void) | null } | null>(null);
  useEffect(() => {
    billingApi.get().then(
      (r) => setSaved(r.billingDetails),
      () => setSaved(undefined),
    );
  }, []);
  const ensure = useCallback((next: () => void) => (saved === null ? setAsking({ next }) : next()), [saved]);
  const handleRefusal = (error: unknown, retry: () => void) => {
    if (!isApiRequestError(error) || error.code !== 'BILLING_DETAILS_REQUIRED') return false;
    setSaved(null);
    setAsking({ next: retry });
    return true;
  };
  return {
    saved,
    ensure,
    handleRefusal,
    edit: () => setAsking({ next: null }),
    modal: {
      show: asking !== null,
      onHide: () => setAsking(null),
      onSaved: (details) => {
        setSaved(details);
        const next = asking?.next;
        setAsking(null);
        next?.();
      },
    },
  };
}

export function BillingSummary({ step }: { step: BillingStep }) {
  const d = step.saved;
  if (!d) return null;
  return (
    <Card className="mb-3" data-testid="billing-summary">
      <Card.Body className="d-flex flex-wrap justify-content-between align-items-center gap-2 py-2">
        <span className="small">
          <strong>Faturamento:</strong> {d.name} · {d.documentKind === 'cnpj' ? 'CNPJ' : 'CPF'} {d.documentFormatted} · {d.city}/{d.state}
        </span>
        <Button size="sm" variant="outline-secondary" onClick={step.edit}>
          Alterar
        </Button>
      </Card.Body>
    </Card>
  );
}

export function BillingModal({ step, email }: { step: BillingStep; email: string }) {
  const { show, onHide, onSaved } = step.modal;
  return (
    <Modal show={show} onHide={onHide} size="lg" centered aria-labelledby="billing-modal-title" data-testid="billing-modal">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="billing-modal-title" as="h2" className="h5">
          Dados de faturamento
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary">Informe quem compra: os dados vão no recibo e na nota fiscal de serviço (NFS-e). Você pode alterá-los depois em Conta › Dados de faturamento.</p>
        {show && (
          <BillingDetailsFormLazy
            saved={step.saved ?? null}
            accountEmail={email}
            submitLabel="Salvar e continuar"
            onSaved={onSaved}
            secondary={
              <Button variant="secondary" onClick={onHide}>
                Cancelar
              </Button>
            }
          />
        )}
      </Modal.Body>
    </Modal>
  );
}
