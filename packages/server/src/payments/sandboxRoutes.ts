/**
 * The sandbox's hosted checkout, so that `npm start` shows every payment flow without an
 * outside account (docs/payments.md "Sandbox"). The dashboard's page /sandbox/checkout/{id}
 * reads a checkout and acts on it as a payer would on Mercado Pago's or Stripe's page; renewals
 * are charged on demand. Each action changes the sandbox's own books first, then the payment is
 * read back and applied exactly as a real provider's (checkoutSynchronizer, paymentRecorder).
 * Sandbox mode only (403 SANDBOX_ONLY otherwise), for the buyer (or an admin).
 *
 * GET /api/payments/sandbox/checkouts/{id} · POST …/{id}/pay {method, outcome, installments} ·
 * POST …/{id}/authorize {outcome} · POST /api/payments/renewals/{id}/simulate-charge {outcome}
 */
import { Router, type Request, type RequestHandler } from 'express';
import {
  PAYMENT_MESSAGES as M,
  formatMoney,
  sandboxChargeSchema,
  sandboxPaySchema,
  type ApiSandboxCheckout,
  type SandboxCheckoutResult,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Purchase, Renewal, SandboxCheckout } from '../models/index.js';
import { authUser, requireAuth } from '../http/guards.js';
import { ApiError } from '../http/errors.js';
import { findOwnedOrNull } from '../http/ownership.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { isPaymentProviderError, providerErrorToApi, type ProviderPayment } from './providers/index.js';
import { recordProviderPayment } from './paymentRecorder.js';
import { recordRenewalCharge } from './checkoutSynchronizer.js';
import { presentPixPayment } from './presenter.js';
import { ownedRenewal } from './access.js';

const mapProviderErrors = (err: unknown): never => {
  throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
};

function presentCheckout(checkout: SandboxCheckout): ApiSandboxCheckout {
  return {
    id: checkout.id,
    kind: checkout.kind,
    status: checkout.status,
    amountCents: checkout.amountCents,
    currency: checkout.currency,
    formattedAmount: formatMoney(checkout.amountCents, checkout.currency),
    description: checkout.description,
    maxInstallments: checkout.maxInstallments,
    frequencyMonths: checkout.frequencyMonths,
    methods: checkout.kind === 'payment' && checkout.currency === 'BRL' ? ['card', 'boleto'] : ['card'],
    returnUrl: checkout.returnUrl,
  };
}

export function createSandboxCheckoutRouter(ctx: AppContext): Router {
  const router = Router();
  const sandboxOnly: RequestHandler = async (_req, _res, next) => {
    // Only while nothing configures a real provider: a configured one (even broken) is no sandbox.
    if ((await ctx.payments.mode()) !== 'sandbox') return next(ApiError.forbidden(M.sandboxOnly, 'SANDBOX_ONLY'));
    next();
  };
  router.use(requireAuth(ctx), rateLimit(ctx.rateLimits.limiter('sandbox-checkout', { points: 60, windowMs: 60_000 })), sandboxOnly);

  /** The checkout and what it pays, when the signed-in user owns it (or is an admin); 404 otherwise. */
  async function ownedCheckout(req: Request): Promise<{ checkout: SandboxCheckout; purchase: Purchase | null; renewal: Renewal | null }> {
    const checkout = await ctx.payments.sandbox.checkout(String(req.params.id)).catch(() => null);
    if (!checkout?.externalReference) throw ApiError.notFound(M.checkoutNotFound, 'CHECKOUT_NOT_FOUND');
    const user = authUser(req);
    if (checkout.kind === 'renewal') {
      const renewal = await findOwnedOrNull(ctx.models.Renewal, checkout.externalReference, user);
      if (!renewal) throw ApiError.notFound(M.checkoutNotFound, 'CHECKOUT_NOT_FOUND');
      return { checkout, purchase: null, renewal };
    }
    const purchase = await findOwnedOrNull(ctx.models.Purchase, checkout.externalReference, user);
    if (!purchase) throw ApiError.notFound(M.checkoutNotFound, 'CHECKOUT_NOT_FOUND');
    return { checkout, purchase, renewal: null };
  }

  const answer = (checkout: SandboxCheckout, payment: NonNullable<Awaited<ReturnType<typeof recordProviderPayment>>>['payment']): SandboxCheckoutResult => ({
    success: true,
    returnUrl: checkout.returnUrl,
    payment: presentPixPayment(payment),
  });

  router.get('/checkouts/:id', async (req, res) => {
    const { checkout } = await ownedCheckout(req);
    res.json({ success: true, checkout: presentCheckout(checkout) });
  });

  router.post('/checkouts/:id/pay', validate(sandboxPaySchema), async (req, res) => {
    const { method, outcome, installments } = inputOf(req, sandboxPaySchema);
    const { checkout, purchase } = await ownedCheckout(req);
    if (!purchase) throw ApiError.notFound(M.checkoutNotFound, 'CHECKOUT_NOT_FOUND');
    if (checkout.status !== 'open') throw ApiError.conflict(M.checkoutClosed, 'CHECKOUT_CLOSED');
    if (method === 'boleto' && checkout.currency !== 'BRL') throw new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}${M.cardUnavailable}`);
    if (method === 'card' && installments > checkout.maxInstallments) throw new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}${M.installmentsInvalid}`);
    const remote: ProviderPayment = await ctx.payments.sandbox.payCheckout(checkout.id, { method, outcome, installments }).catch(mapProviderErrors);
    const result = await recordProviderPayment(ctx, purchase, remote, { actor: `user:${authUser(req).id}`, reason: reasonOf(method, outcome) });
    if (!result) throw new ApiError(500, 'CHECKOUT_PAYMENT_FAILED', M.internal);
    res.json(answer(checkout, result.payment));
  });

  router.post('/checkouts/:id/authorize', validate(sandboxChargeSchema), async (req, res) => {
    const { outcome } = inputOf(req, sandboxChargeSchema);
    const { checkout, renewal } = await ownedCheckout(req);
    if (!renewal) throw ApiError.notFound(M.checkoutNotFound, 'CHECKOUT_NOT_FOUND');
    if (checkout.status !== 'open') throw ApiError.conflict(M.checkoutClosed, 'CHECKOUT_CLOSED');
    const remote = await ctx.payments.sandbox.authorizeRenewal(checkout.id, outcome).catch(mapProviderErrors);
    const result = await recordRenewalCharge(ctx, renewal.id, remote, { actor: `user:${authUser(req).id}`, reason: reasonOf('card', outcome, true) });
    if (!result) throw new ApiError(500, 'CHECKOUT_PAYMENT_FAILED', M.internal);
    res.json(answer(checkout, result.payment));
  });

  return router;
}

/** POST /api/payments/renewals/{id}/simulate-charge {outcome}: the next period's charge of an active sandbox renewal. */
export function simulateRenewalChargeHandlers(ctx: AppContext): RequestHandler[] {
  return [
    requireAuth(ctx),
    rateLimit(ctx.rateLimits.limiter('sandbox-checkout', { points: 60, windowMs: 60_000 })),
    validate(sandboxChargeSchema),
    async (req, res) => {
      const { outcome } = inputOf(req, sandboxChargeSchema);
      const user = authUser(req);
      const renewal = await ownedRenewal(ctx, req.params.id, user);
      if ((await ctx.payments.mode()) !== 'sandbox' || renewal.provider !== 'sandbox' || !renewal.providerRenewalId) {
        throw ApiError.forbidden(M.sandboxOnly, 'SANDBOX_ONLY');
      }
      if (renewal.status !== 'active') throw ApiError.conflict(M.renewalAlreadyCancelled, 'RENEWAL_NOT_ACTIVE');
      const remote = await ctx.payments.sandbox.chargeRenewal(renewal.providerRenewalId, outcome).catch(mapProviderErrors);
      const result = await recordRenewalCharge(ctx, renewal.id, remote, { actor: `user:${user.id}`, reason: outcome === 'approved' ? M.renewalChargeApproved : M.renewalChargeFailed });
      if (!result) throw new ApiError(500, 'CHECKOUT_PAYMENT_FAILED', M.internal);
      res.json({ success: true, message: outcome === 'approved' ? M.renewalChargeApproved : M.renewalChargeFailed, payment: presentPixPayment(result.payment) });
    },
  ];
}

function reasonOf(method: 'card' | 'boleto', outcome: 'approved' | 'rejected' | 'pending', renewal = false): string {
  if (method === 'boleto') return 'Boleto gerado no checkout (sandbox)';
  if (renewal) return outcome === 'approved' ? 'Renovação automática autorizada: primeira cobrança aprovada (sandbox)' : 'Renovação automática: primeira cobrança recusada (sandbox)';
  if (outcome === 'approved') return 'Pagamento com cartão aprovado (sandbox)';
  if (outcome === 'rejected') return 'Pagamento com cartão recusado (sandbox)';
  return 'Pagamento com cartão em análise (sandbox)';
}
