/** Request schemas of the payment calls (server validation and the dashboard share them). */
import { boolean, mixed, number, object } from 'yup';
import { PAYMENT_MESSAGES as M } from './plansMessages.js';

/** POST /payments/checkout/{planId}: a hosted checkout, or with renew an automatic renewal of a subscription plan. */
export const checkoutSchema = object({ renew: boolean().typeError(M.checkoutOutcomeInvalid).default(false) });

export const SANDBOX_OUTCOMES = ['approved', 'rejected', 'pending'] as const;
export type SandboxPaymentOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** POST /payments/sandbox/checkouts/{id}/pay: what the payer does on the sandbox's hosted page. */
export const sandboxPaySchema = object({
  method: mixed<'card' | 'boleto'>().oneOf(['card', 'boleto'], M.checkoutOutcomeInvalid).required(M.checkoutOutcomeInvalid),
  outcome: mixed<SandboxPaymentOutcome>().oneOf(SANDBOX_OUTCOMES, M.checkoutOutcomeInvalid).default('approved'),
  installments: number().typeError(M.installmentsInvalid).integer(M.installmentsInvalid).min(1, M.installmentsInvalid).max(24, M.installmentsInvalid).default(1),
});

/** POST /payments/sandbox/checkouts/{id}/authorize and POST /payments/renewals/{id}/simulate-charge: a charge approved or refused. */
export const sandboxChargeSchema = object({
  outcome: mixed<'approved' | 'rejected'>().oneOf(['approved', 'rejected'], M.checkoutOutcomeInvalid).required(M.checkoutOutcomeInvalid),
});
