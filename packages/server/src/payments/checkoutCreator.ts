/**
 * A user buys a plan on a provider's hosted page: card (with the installments the operator
 * allows) or boleto through Mercado Pago's Checkout Pro for BRL, card through Stripe Checkout
 * for USD and EUR, or the sandbox's own page. With `renew`, a subscription plan is bought with
 * automatic renewal instead: the payer authorizes the provider to charge the card every period
 * (Mercado Pago's preapproval, a Stripe subscription).
 *
 * A pending purchase (and renewal) is written first, then the checkout is made at the provider
 * with an idempotency key of ours; nothing is applied here: only the payments read back later
 * apply the plan (checkoutSynchronizer.ts, the webhooks).
 */
import { PAYMENT_MESSAGES as M, currencyUnsupportedMessage, isUuid, type Currency } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Purchase, Renewal, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { isPaymentProviderError, providerErrorToApi, type PaymentProvider } from './providers/index.js';
import { closePurchase } from './purchaseCloser.js';
import { billingSnapshotFor } from '../fiscal/billing.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

/** How long a checkout takes new payments (Stripe allows at most 24 hours). */
export const CHECKOUT_LIFETIME_MS = 23 * 3600_000;

export interface CheckoutOptions {
  renew: boolean;
  /** Our public address (PUBLIC_URL, or the request's origin): the provider sends the payer back under it. */
  baseUrl: string;
}

export interface CreatedCheckout {
  purchase: Purchase;
  renewal: Renewal | null;
  checkoutUrl: string;
}

const validation = (text: string) => new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}${text}`);

export async function createHostedCheckout(ctx: Ctx, user: User, planId: string, opts: CheckoutOptions): Promise<CreatedCheckout> {
  const { models } = ctx;
  const plan = isUuid(planId) ? await models.Plan.findByPk(planId) : null;
  if (!plan || !plan.isActive) throw ApiError.notFound(M.planNotFound, 'PLAN_NOT_FOUND');
  if (plan.priceCents <= 0) throw validation('o valor do plano deve ser maior que zero');
  const currency: Currency = plan.currency;
  const route = (await ctx.payments.routes())[currency];
  if (!route || !route.card) throw validation(currencyUnsupportedMessage(plan.currency));
  if (opts.renew && plan.type !== 'subscription') throw validation(M.renewalOnlySubscriptions);
  if (opts.renew && !route.renewal) throw validation(M.renewalUnavailable);
  const billingSnapshot = billingSnapshotFor(user);
  // A configured provider in its error state refuses here (503 PAYMENTS_UNAVAILABLE), before any row.
  const provider: PaymentProvider = await ctx.payments.forCurrency(plan.currency).catch((err: unknown) => {
    throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
  });

  const { purchase, renewal } = await ctx.sequelize.transaction(async (transaction) => {
    const renewal = opts.renew
      ? await models.Renewal.create(
          {
            userId: user.id,
            planId: plan.id,
            planSnapshot: plan.snapshot(),
            provider: provider.name,
            amountCents: plan.priceCents,
            currency: plan.currency,
            frequencyMonths: plan.durationMonths ?? 1,
          },
          { transaction },
        )
      : null;
    const purchase = await models.Purchase.create(
      {
        userId: user.id,
        planId: plan.id,
        planSnapshot: plan.snapshot(),
        amountCents: plan.priceCents,
        currency: plan.currency,
        provider: provider.name,
        renewalId: renewal?.id ?? null,
        billingSnapshot,
      },
      { transaction },
    );
    await models.PurchaseTransition.create(
      {
        purchaseId: purchase.id,
        fromStatus: null,
        toStatus: 'pending',
        reason: renewal ? 'Compra criada (cartão, com renovação automática)' : 'Compra criada (checkout do provedor: cartão ou boleto)',
        actor: `user:${user.id}`,
      },
      { transaction },
    );
    return { purchase, renewal };
  });

  const base = opts.baseUrl.replace(/\/+$/, '');
  const common = {
    amountCents: plan.priceCents,
    currency: plan.currency,
    title: `aabify - ${plan.name}`,
    payerEmail: user.email,
    returnUrl: `${base}/payment-status?purchase_id=${purchase.id}`,
    cancelUrl: `${base}/plans`,
    notificationUrl: provider.name === 'mercadopago' ? ctx.payments.notificationUrl() : undefined,
  };
  try {
    if (renewal) {
      const remote = await provider.createRenewal({
        ...common,
        externalReference: renewal.id,
        purchaseId: purchase.id,
        frequencyMonths: renewal.frequencyMonths,
        idempotencyKey: `aabify-renewal-${renewal.id}`,
      });
      if (!remote.url) throw new Error(`provider ${provider.name} answered a renewal without a page`);
      await renewal.update({ providerRenewalId: remote.id, checkoutUrl: remote.url });
      await purchase.update({ checkoutId: remote.id, checkoutUrl: remote.url });
    } else {
      const checkout = await provider.createCheckout({
        ...common,
        externalReference: purchase.id,
        idempotencyKey: `aabify-checkout-${purchase.id}`,
        maxInstallments: route.maxInstallments,
        expiresAt: new Date(Date.now() + CHECKOUT_LIFETIME_MS),
      });
      await purchase.update({ checkoutId: checkout.id, checkoutUrl: checkout.url });
    }
  } catch (err) {
    ctx.logger.error({ err, purchaseId: purchase.id, provider: provider.name }, 'hosted checkout could not be created');
    await ctx.sequelize
      .transaction(async (transaction) => {
        await closePurchase(ctx, purchase.id, 'cancelled', { transaction, actor: 'system', reason: 'Falha ao criar o checkout no provedor' });
        if (renewal) await renewal.update({ status: 'cancelled', cancelledAt: new Date(), cancelReason: 'Falha ao criar no provedor' }, { transaction });
      })
      .catch((e: unknown) => ctx.logger.error({ err: e, purchaseId: purchase.id }, 'could not close the failed checkout'));
    if (isPaymentProviderError(err)) throw providerErrorToApi(err);
    throw new ApiError(500, 'CHECKOUT_CREATE_FAILED', M.internal);
  }
  return { purchase, renewal, checkoutUrl: purchase.checkoutUrl! };
}
