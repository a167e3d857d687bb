/**
 * GET /payments/config, read when a PIX is shown: whether the sandbox approval button is
 * offered. Read afresh for every payment, since an admin can switch the provider at any time.
 * A failed read offers nothing.
 */
import { useEffect, useState } from 'react';
import type { PaymentConfigResponse } from '@aabify/shared';
import { paymentsApi } from '../../api/payments';

export function usePaymentConfig(paymentId: string | null | undefined): PaymentConfigResponse | null {
  const [config, setConfig] = useState<PaymentConfigResponse | null>(null);
  useEffect(() => {
    if (!paymentId) return;
    let live = true;
    paymentsApi
      .config()
      .then((c) => live && setConfig(c))
      .catch(() => live && setConfig(null));
    return () => {
      live = false;
    };
  }, [paymentId]);
  return paymentId ? config : null;
}
