/**
 * What the admin screens say of payments (docs/payments.md "Provider state"): a red banner on
 * every admin screen while a configured provider cannot be used — purchases are refused then,
 * never moved to the sandbox — and, on Compras and Configurações, which provider is active.
 */
import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import { Link, useLocation } from 'react-router-dom';
import { PAYMENT_MESSAGES } from '@aabify/shared';
import { usePaymentsStatus } from '../stores/paymentsStatus';

/** Every admin screen: shown only while payments are unavailable. */
export function PaymentsUnavailableBanner() {
  const status = usePaymentsStatus((s) => s.status);
  const refresh = usePaymentsStatus((s) => s.refresh);
  const { pathname } = useLocation();
  useEffect(() => {
    void refresh();
  }, [pathname, refresh]);
  if (!status || status.available) return null;
  return (
    <Alert variant="danger" role="alert" data-testid="payments-unavailable-banner">
      <Alert.Heading as="h2" className="h6 mb-1">
        {PAYMENT_MESSAGES.unavailableTitle}
      </Alert.Heading>
      <div>{status.message}</div>
      {pathname !== '/admin/settings' && (
        <Link to="/admin/settings" className="alert-link small">
          Abrir Configurações
        </Link>
      )}
    </Alert>
  );
}

/** Which provider takes the payments, said plainly (sandbox: simulated, no real money). */
export function PaymentProviderNotice() {
  const status = usePaymentsStatus((s) => s.status);
  if (!status) return null;
  return (
    <div className="small mb-3" data-testid="payment-provider">
      Provedor de pagamento:{' '}
      <Badge bg={!status.available ? 'danger' : status.sandbox ? 'warning' : 'success'} text={status.sandbox && status.available ? 'dark' : undefined}>
        {status.label}
      </Badge>
      {!status.available && <span className="text-danger ms-2">indisponível</span>}
    </div>
  );
}
