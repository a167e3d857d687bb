import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { formatMoney, PAYMENT_MESSAGES, PLAN_MESSAGES, type ApiPixPayment, type ApiPlan, type Currency, type CurrencyPaymentRoute, type PlanType } from '@aabify/shared';
import { paymentsApi } from '../../api/payments';
import { isApiRequestError } from '../../api/client';
import { plansApi } from '../../api/plans';
import type { PlanRedirectState } from '../../components/guards';
import { Loading } from '../../components/Loading';
import { PlanCard } from '../../components/PlanCard';
import { pixCreateErrorMessage } from '../../lib/errors';
import { syncPlanAfterApproval } from '../../stores/planAccess';
import { useSession } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { pendingPayment } from './pendingPayment';
import { PixModal } from './PixModal';
import { PIX_PHASE_MESSAGES, phaseOfStatus, usePixCheck, usePixPolling } from './usePixPolling';
import { usePageTitle } from '../../components/PageHeader';
import { SupportContact } from '../../components/SupportContact';
import { Icon } from '../../components/Icon';
import { BillingModal, BillingSummary, useBillingStep } from './BillingStep';

/** How the buyer chose to pay: PIX here, or a hosted checkout (card, boleto) or an automatic renewal at the provider. */
type BuyWay = 'pix' | 'checkout' | 'renewal';

function PlanOffer({ plan, route, busy, onBuy }: { plan: ApiPlan; route: CurrencyPaymentRoute | null; busy: BuyWay | null; onBuy(way: BuyWay): void }) {
  const spinner = (way: BuyWay) => busy === way && <Spinner size="sm" className="me-2" aria-hidden="true" />;
  const main = plan.isPopular ? 'primary' : 'outline-primary';
  // The accessible name starts with the button's own words (what a voice user says), then the plan.
  const cardLabel = plan.currency === 'BRL' ? 'Pagar com cartão ou boleto' : 'Pagar com cartão';
  return (
    <Card className={`h-100 ${plan.isPopular ? 'border-primary border-2' : ''}`} data-testid="plan-offer" data-plan-name={plan.name}>
      <Card.Body className="d-flex flex-column">
        <div className="d-flex justify-content-between align-items-start gap-2">
          <Card.Title as="h3" className="h5">
            {plan.name}
          </Card.Title>
          {plan.isPopular && <Badge bg="primary">Mais Popular</Badge>}
        </div>
        <div className="fs-3 fw-bold my-2">{plan.formattedPrice || formatMoney(plan.priceCents, plan.currency)}</div>
        <div className="text-body-secondary mb-2">
          {plan.type === 'credit'
            ? `${plan.credits ?? 0} ${plan.credits === 1 ? 'crédito' : 'créditos'}`
            : `${plan.subscriptionDetails?.duration ?? 1} ${plan.subscriptionDetails?.duration === 1 ? 'mês' : 'meses'} de conversões ilimitadas`}
        </div>
        {plan.description && <p className="small">{plan.description}</p>}
        {plan.features.length > 0 && (
          <ul className="small ps-3">
            {plan.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
        <div className="mt-auto d-grid gap-2">
          {route?.pix && (
            <Button variant={main} onClick={() => onBuy('pix')} disabled={busy !== null} aria-label={`Pagar com PIX: ${plan.name}`}>
              {spinner('pix')}
              Pagar com PIX
            </Button>
          )}
          {route?.card && (
            <Button variant={route.pix ? 'outline-secondary' : main} onClick={() => onBuy('checkout')} disabled={busy !== null} aria-label={`${cardLabel}: ${plan.name}`}>
              {spinner('checkout')}
              {cardLabel}
            </Button>
          )}
          {route?.renewal && plan.type === 'subscription' && (
            <Button variant="outline-secondary" onClick={() => onBuy('renewal')} disabled={busy !== null} aria-label={`Assinar com renovação automática: ${plan.name}`}>
              {spinner('renewal')}
              Assinar com renovação automática
            </Button>
          )}
          {route?.card && route.maxInstallments > 1 && <div className="small text-body-secondary text-center">Cartão em até {route.maxInstallments}x</div>}
        </div>
      </Card.Body>
    </Card>
  );
}

function SuccessScreen() {
  return (
    <Card className="text-center mx-auto" style={{ maxWidth: 520 }} data-testid="payment-success">
      <Card.Body className="p-4">
        <div className="display-4 text-success" aria-hidden="true">
          <Icon name="check-circle-fill" />
        </div>
        <h1 className="h3">{PAYMENT_MESSAGES.approved}</h1>
        <p className="text-body-secondary">Você já pode converter seus APKs.</p>
        <div className="d-flex flex-wrap justify-content-center gap-2">
          <Link to="/dashboard" className="btn btn-primary">
            Ir para o Painel
          </Link>
          <Link to="/purchases" className="btn btn-outline-secondary">
            Minhas compras
          </Link>
        </div>
      </Card.Body>
    </Card>
  );
}

export default function PlansPage() {
  usePageTitle('Planos');
  const user = useSession((s) => s.user);
  const location = useLocation();
  const redirect = location.state as Partial<PlanRedirectState> | null;
  const [plans, setPlans] = useState<ApiPlan[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [type, setType] = useState<PlanType>(user?.userType === 'subscription' ? 'subscription' : 'credit');
  const [buying, setBuying] = useState<{ planId: string; way: BuyWay } | null>(null);
  const [routes, setRoutes] = useState<Partial<Record<Currency, CurrencyPaymentRoute | null>>>({});
  const navigate = useNavigate();
  const [payment, setPayment] = useState<ApiPixPayment | null>(null);
  const [planName, setPlanName] = useState('');
  const [success, setSuccess] = useState(false);
  const billing = useBillingStep();
  const fetchPlans = () => {
    plansApi
      .publicPlans()
      .then(setPlans)
      .catch(() => setLoadError(true));
  };
  useEffect(fetchPlans, []);
  useEffect(() => {
    paymentsApi
      .config()
      .then((c) => setRoutes(c.routes ?? {}))
      // Without the config, PIX in BRL is what every server offers.
      .catch(() => setRoutes({ BRL: { provider: 'sandbox', pix: true, card: false, renewal: false, maxInstallments: 1 } }));
  }, []);
  const retry = () => {
    setLoadError(false);
    setPlans(null);
    fetchPlans();
  };

  const approve = useCallback(async () => {
    pendingPayment.forget();
    setPayment(null);
    await syncPlanAfterApproval();
    setSuccess(true);
    toast.success(PAYMENT_MESSAGES.approved);
  }, []);

  // A final answer from the polling ends the flow.
  const polling = usePixPolling(payment, (phase) => {
    if (phase === 'approved') void approve();
    if (phase === 'rejected' || phase === 'cancelled' || phase === 'not_found' || phase === 'expired') {
      pendingPayment.forget();
      toast.error(PIX_PHASE_MESSAGES[phase] ?? PAYMENT_MESSAGES.statusFailed);
    }
  });
  const { checking, check } = usePixCheck(payment, polling);

  // A payment remembered from an earlier visit is checked once.
  const userId = user?.id;
  useEffect(() => {
    const pending = pendingPayment.read(userId);
    if (!pending) return;
    plansApi
      .pixStatus(pending.paymentId)
      .then((r) => {
        const phase = phaseOfStatus(r.payment.status, r.payment.isExpired);
        if (phase === 'approved') void approve();
        else if (phase === 'polling') {
          setPlanName('Pagamento pendente');
          setPayment(r.payment);
        } else {
          pendingPayment.forget();
          toast.error(PIX_PHASE_MESSAGES[phase] ?? PAYMENT_MESSAGES.rejected);
        }
      })
      .catch((e) => {
        if (isApiRequestError(e) && e.status === 404) pendingPayment.forget();
        toast.error(PAYMENT_MESSAGES.verifyFailed);
      });
  }, [approve, userId]);

  /** Card, boleto or a renewal: the provider's page (the sandbox's is one of ours), and the return page after. */
  const checkout = async (plan: ApiPlan, renew: boolean) => {
    setBuying({ planId: plan.id, way: renew ? 'renewal' : 'checkout' });
    try {
      const res = await paymentsApi.checkout(plan.id, renew);
      if (res.checkoutUrl.startsWith('/')) navigate(res.checkoutUrl);
      else window.location.assign(res.checkoutUrl);
    } catch (e) {
      if (billing.handleRefusal(e, () => void checkout(plan, renew))) return;
      toast.error(isApiRequestError(e) ? pixCreateErrorMessage(e) : PAYMENT_MESSAGES.createFailed);
    } finally {
      setBuying(null);
    }
  };

  // Every purchase needs the buyer's billing details: asked first when missing.
  const buy = (plan: ApiPlan, way: BuyWay) => billing.ensure(() => void pay(plan, way));

  const pay = async (plan: ApiPlan, way: BuyWay) => {
    if (way !== 'pix') return checkout(plan, way === 'renewal');
    setBuying({ planId: plan.id, way });
    try {
      const res = await plansApi.createPix(plan.id);
      if (!res.success) throw new Error(PAYMENT_MESSAGES.generateFailed);
      pendingPayment.remember(res.payment.id, res.purchase.id, user?.id);
      setPlanName(plan.name);
      setPayment(res.payment);
    } catch (e) {
      if (billing.handleRefusal(e, () => void pay(plan, way))) return;
      toast.error(isApiRequestError(e) ? pixCreateErrorMessage(e) : e instanceof Error ? e.message : PAYMENT_MESSAGES.createFailed);
    } finally {
      setBuying(null);
    }
  };


  if (success) return <SuccessScreen />;
  const shown = (plans ?? []).filter((p) => p.type === type).sort((a, b) => a.displayOrder - b.displayOrder || a.price - b.price);
  return (
    <>
      <h1 className="h3">Escolha seu plano</h1>
      <p className="text-body-secondary">Pague com PIX, cartão ou boleto e comece a converter assim que o pagamento for confirmado.</p>
      {redirect?.reason && (
        <Alert variant="warning" data-testid="plans-reason" data-status={redirect.status} data-from={redirect.from}>
          {redirect.reason}
        </Alert>
      )}
      {user?.userType && (
        <div className="mb-4" style={{ maxWidth: 520 }}>
          <PlanCard user={user} title="Plano atual" showBuy={false} />
        </div>
      )}
      <BillingSummary step={billing} />
      <ToggleButtonGroup type="radio" name="plan-type" value={type} onChange={(v: PlanType) => setType(v)} className="mb-3" aria-label="Tipo de plano">
        <ToggleButton id="plan-type-credit" value="credit" variant="outline-primary">
          Créditos
        </ToggleButton>
        <ToggleButton id="plan-type-subscription" value="subscription" variant="outline-primary">
          Assinatura
        </ToggleButton>
      </ToggleButtonGroup>
      {loadError ? (
        <Alert variant="danger" className="d-flex flex-wrap justify-content-between align-items-center gap-2" data-testid="plans-error">
          <span>{PLAN_MESSAGES.loadFailed}</span>
          <Button variant="outline-danger" size="sm" onClick={retry}>
            Tentar Novamente
          </Button>
        </Alert>
      ) : plans === null ? (
        <Loading />
      ) : shown.length === 0 ? (
        <div data-testid="plans-empty">
          <p className="text-body-secondary">Nenhum plano disponível neste tipo.</p>
          <SupportContact compact lead="Não encontrou um plano para você?" />
        </div>
      ) : (
        <Row xs={1} md={2} lg={3} className="g-3">
          {shown.map((p) => (
            <Col key={p.id}>
              <PlanOffer plan={p} route={routes[p.currency] ?? null} busy={buying?.planId === p.id ? buying.way : null} onBuy={(way) => buy(p, way)} />
            </Col>
          ))}
        </Row>
      )}
      <BillingModal step={billing} email={user?.email ?? ''} />
      <PixModal
        payment={payment}
        planName={planName}
        phase={polling.phase}
        checking={checking}
        onCheck={() => void check()}
        onClose={() => setPayment(null)}
        onExpired={() => polling.settle('expired')}
      />
    </>
  );
}
