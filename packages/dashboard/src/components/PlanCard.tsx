import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import type { ApiUser } from '@aabify/shared';
import { planDisplay } from '../lib/planStatus';
import type { PlansEntryState } from './guards';

/** Yellow and light-blue badges need dark text to stay legible. */
export const darkText = (tone: string): 'dark' | undefined => (tone === 'warning' || tone === 'info' ? 'dark' : undefined);

/** Credits or subscription expiry, with the warnings of lib/planStatus. */
export function PlanCard({ user, title = 'Seu Plano', showBuy = true }: { user: ApiUser; title?: string; showBuy?: boolean }) {
  const d = planDisplay(user);
  const buyState: PlansEntryState = { topUp: true };
  return (
    <Card className="h-100" data-testid="plan-card">
      <Card.Body>
        <Card.Title as="h2" className="h6 text-body-secondary text-uppercase">
          {title}
        </Card.Title>
        {d.kind === 'credit' && (
          <>
            <div className="d-flex align-items-baseline gap-2 flex-wrap">
              <span className="stat-value" data-testid="plan-credits">
                {d.credits}
              </span>
              <span>{d.credits === 1 ? 'crédito disponível' : 'créditos disponíveis'}</span>
            </div>
            {d.warning && (
              <Badge bg={d.tone} text={darkText(d.tone)} className="mt-2" data-testid="credit-warning">
                {d.warning}
              </Badge>
            )}
            {showBuy && (
              <div className="mt-3">
                <Link to="/plans" state={buyState} className="btn btn-sm btn-outline-primary">
                  Comprar créditos
                </Link>
              </div>
            )}
          </>
        )}
        {d.kind === 'subscription' && (
          <>
            <p className="mb-1">Assinatura — conversões ilimitadas</p>
            <p className="mb-2">
              Expira em <strong data-testid="plan-expiry">{d.expiresText}</strong>
            </p>
            <Badge bg={d.tone} text={darkText(d.tone)} data-testid="subscription-badge">
              {d.badge}
            </Badge>
            {d.warning && (
              <Badge bg="danger" className="ms-2" data-testid="subscription-warning">
                {d.warning}
              </Badge>
            )}
            {showBuy && (
              <div className="mt-3">
                <Link to="/plans" state={buyState} className="btn btn-sm btn-outline-primary">
                  Renovar assinatura
                </Link>
              </div>
            )}
          </>
        )}
        {d.kind === 'none' && (
          <>
            <p className="mb-2">Você ainda não tem um plano.</p>
            {showBuy && (
              <Link to="/plans" className="btn btn-sm btn-primary">
                Escolher um plano
              </Link>
            )}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
