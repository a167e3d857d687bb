/** The bulk bar's 'Atualização personalizada': a price, a currency and/or a display order for every selected plan. */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { CURRENCIES, PLAN_MESSAGES, formatMoney, fromCents, planBulkCustomUpdateFormSchema } from '@aabify/shared';
import { MoneyInput } from '../../components/MoneyInput';

export function CustomUpdateModal({ show, count, onHide, onApply }: { show: boolean; count: number; onHide(): void; onApply(u: Record<string, unknown>): Promise<void> }) {
  const [priceCents, setPriceCents] = useState<number | null>(null);
  const [currency, setCurrency] = useState('');
  const [order, setOrder] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Each opening starts empty.
  const reset = () => {
    setPriceCents(null);
    setCurrency('');
    setOrder('');
    setError(null);
  };
  const apply = async () => {
    try {
      const v = await planBulkCustomUpdateFormSchema.validate({ price: priceCents === null ? '' : fromCents(priceCents), currency, displayOrder: order });
      const updates: Record<string, unknown> = {};
      if (v.price !== undefined) updates.price = v.price;
      if (v.currency) updates.currency = v.currency;
      if (v.displayOrder !== undefined) updates.displayOrder = v.displayOrder;
      await onApply(updates);
    } catch (e) {
      setError(e instanceof Error ? e.message : PLAN_MESSAGES.bulkUpdateEmpty);
    }
  };
  return (
    <Modal show={show} onShow={reset} onHide={onHide} centered>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title as="h2" className="h5">Atualização personalizada ({count})</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <MoneyInput id="bulk-price" label="Preço" value={priceCents} onChange={setPriceCents} preview={(c) => `Os planos selecionados passarão a custar ${formatMoney(c)}`} />
        <Form.Group className="mb-2" controlId="bulk-currency">
          <Form.Label>Moeda</Form.Label>
          <Form.Select value={currency} onChange={(e) => setCurrency(e.target.value)}>
            <option value="">Manter</option>
            {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="bulk-order">
          <Form.Label>Ordem de exibição</Form.Label>
          <Form.Control type="number" min={1} step={1} value={order} onChange={(e) => setOrder(e.target.value)} />
        </Form.Group>
        {error && <div className="text-danger small mt-2" role="alert">{error}</div>}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>Cancelar</Button>
        <Button onClick={() => void apply()} disabled={priceCents === null && order.trim() === ''}>Aplicar</Button>
      </Modal.Footer>
    </Modal>
  );
}
