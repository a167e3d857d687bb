/**
 * The sandbox's hosted checkout (/sandbox/checkout/{id}): with no payment provider configured,
 * "Pagar com cartão" and "Assinar com renovação automática" come here instead of Mercado Pago's
 * or Stripe's page. The payer plays what would happen there — a card approved, refused or left
 * in review, a boleto issued, a renewal authorized or refused — and is sent to the return page,
 * which learns the outcome from the server like any provider's. No real money moves.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PAYMENT_MESSAGES, type ApiSandboxCheckout, type SandboxCheckoutResult, type SandboxPaymentOutcome } from '@aabify/shared';
import { isApiRequestError } from '../api/client';
import { sandboxCheckoutApi } from '../api/payments';
import { Loading } from '../components/Loading';
import { usePageTitle } from '../components/PageHeader';
import { toast } from '../stores/toasts';

type Action = `card-${SandboxPaymentOutcome}` | 'boleto' | 'authorize-approved' | 'authorize-rejected';

const CARD_ACTIONS: Array<{ outcome: SandboxPaymentOutcome; label: string; variant: string }> = [
  { outcome: 'approved', label: 'Pagar com cartão (aprovado)', variant: 'primary' },
  { outcome: 'rejected', label: 'Cartão recusado', variant: 'outline-danger' },
  { outcome: 'pending', label: 'Cartão em análise', variant: 'outline-secondary' },
];

/** The return page is ours: followed inside the app when it is on this origin. */
function returnPath(url: string): string {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.origin === window.location.origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}

export default function SandboxCheckoutPage() {
  usePageTitle('Checkout (sandbox)');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [checkout, setCheckout] = useState<ApiSandboxCheckout | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [installments, setInstallments] = useState(1);
  const [acting, setActing] = useState<Action | null>(null);

  useEffect(() => {
    sandboxCheckoutApi
      .get(id)
      .then((r) => setCheckout(r.checkout))
      .catch((e) => setError(isApiRequestError(e) && e.message ? e.message : PAYMENT_MESSAGES.checkoutNotFound));
  }, [id]);

  const act = async (action: Action, run: () => Promise<SandboxCheckoutResult>) => {
    setActing(action);
    try {
      const result = await run();
      const to = returnPath(result.returnUrl);
      if (to.startsWith('/')) navigate(to);
      else window.location.assign(to);
    } catch (e) {
      toast.error(isApiRequestError(e) && e.message ? e.message : PAYMENT_MESSAGES.createFailed);
      setActing(null);
    }
  };

  if (error) {
    return (
      <Alert variant="danger" className="mx-auto" style={{ maxWidth: 520 }} data-testid="sandbox-checkout-error">
        {error}{' '}
        <Link to="/purchases" className="alert-link">
          Minhas compras
        </Link>
      </Alert>
    );
  }
  if (!checkout) return <Loading />;
  const open = checkout.status === 'open';
  const spinner = (a: Action) => acting === a && <Spinner size="sm" className="me-2" aria-hidden="true" />;
  return (
    <Card className="mx-auto" style={{ maxWidth: 560 }} data-testid="sandbox-checkout" data-kind={checkout.kind} data-status={checkout.status}>
      <Card.Header className="bg-warning-subtle">Sandbox: página de pagamento simulada, nenhum dinheiro real</Card.Header>
      <Card.Body className="p-4">
        <h1 className="h4">{checkout.kind === 'renewal' ? 'Autorizar renovação automática' : 'Pagamento'}</h1>
        <p className="mb-1">{checkout.description}</p>
        <p className="fs-4 fw-bold">
          {checkout.formattedAmount}
          {checkout.frequencyMonths && (
            <span className="fs-6 fw-normal text-body-secondary"> {checkout.frequencyMonths === 1 ? 'por mês' : `a cada ${checkout.frequencyMonths} meses`}</span>
          )}
        </p>
        {!open && (
          <Alert variant="secondary" data-testid="sandbox-checkout-closed">
            {PAYMENT_MESSAGES.checkoutClosed}
          </Alert>
        )}
        {open && checkout.kind === 'payment' && (
          <>
            <h2 className="h6">Cartão de crédito</h2>
            {checkout.maxInstallments > 1 && (
              <Form.Group className="mb-2" controlId="sandbox-installments" style={{ maxWidth: 220 }}>
                <Form.Label className="small">Parcelas</Form.Label>
                <Form.Select size="sm" value={installments} onChange={(e) => setInstallments(Number(e.target.value))}>
                  {Array.from({ length: checkout.maxInstallments }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n}x
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            )}
            <div className="d-flex flex-wrap gap-2 mb-3">
              {CARD_ACTIONS.map(({ outcome, label, variant }) => (
                <Button
                  key={outcome}
                  variant={variant}
                  disabled={acting !== null}
                  onClick={() => void act(`card-${outcome}`, () => sandboxCheckoutApi.pay(checkout.id, { method: 'card', outcome, installments }))}
                >
                  {spinner(`card-${outcome}`)}
                  {label}
                </Button>
              ))}
            </div>
            {checkout.methods.includes('boleto') && (
              <>
                <h2 className="h6">Boleto</h2>
                <Button
                  variant="outline-primary"
                  disabled={acting !== null}
                  onClick={() => void act('boleto', () => sandboxCheckoutApi.pay(checkout.id, { method: 'boleto', outcome: 'pending', installments: 1 }))}
                >
                  {spinner('boleto')}
                  Gerar boleto
                </Button>
                <p className="small text-body-secondary mt-2 mb-0">O boleto fica pendente; em &quot;Minhas compras&quot; você pode simular o pagamento dele.</p>
              </>
            )}
          </>
        )}
        {open && checkout.kind === 'renewal' && (
          <div className="d-flex flex-wrap gap-2">
            <Button variant="primary" disabled={acting !== null} onClick={() => void act('authorize-approved', () => sandboxCheckoutApi.authorize(checkout.id, 'approved'))}>
              {spinner('authorize-approved')}
              Autorizar (primeira cobrança aprovada)
            </Button>
            <Button variant="outline-danger" disabled={acting !== null} onClick={() => void act('authorize-rejected', () => sandboxCheckoutApi.authorize(checkout.id, 'rejected'))}>
              {spinner('authorize-rejected')}
              Cartão recusado
            </Button>
          </div>
        )}
        <div className="mt-4">
          <Link to={returnPath(checkout.returnUrl)} className="btn btn-link px-0">
            Voltar sem pagar
          </Link>
        </div>
      </Card.Body>
    </Card>
  );
}
