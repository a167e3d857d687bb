/**
 * A user buys a plan: a pending purchase with the plan's snapshot, and a PIX charge of 30
 * minutes at the active provider. An unexpired pending charge of the same user, plan and
 * price is answered again instead of a second one (double clicks, a reopened page).
 */
import { Op } from 'sequelize';
import { PAYMENT_MESSAGES as M, PIX_EXPIRATION_MINUTES, currencyUnsupportedMessage, isUuid } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Payment, Purchase, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { isPaymentProviderError, providerErrorToApi } from './providers/index.js';
import { qrPngBase64 } from '../http/qrCodes.js';
import { cancelPaymentLocally } from './paymentSynchronizer.js';
import { billingSnapshotFor } from '../fiscal/billing.js';

type Ctx = Pick<AppContext, 'models' | 'logger' | 'sequelize' | 'payments' | 'mail' | 'fiscal'>;

/** A charge with less time left than this is not handed out again. */
const REUSE_MIN_REMAINING_MS = 2 * 60_000;

export interface CreatedPix {
  payment: Payment;
  purchase: Purchase;
  reused: boolean;
}

export async function createPixPayment(ctx: Ctx, user: User, planId: string): Promise<CreatedPix> {
  const { models } = ctx;
  const plan = isUuid(planId) ? await models.Plan.findByPk(planId) : null;
  if (!plan || !plan.isActive) throw ApiError.notFound(M.planNotFound, 'PLAN_NOT_FOUND');
  if (plan.currency !== 'BRL') throw new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}${M.pixOnlyBrl}`);
  // Only Stripe configured: BRL has no provider, and no PIX.
  if (!(await ctx.payments.routes()).BRL?.pix) throw new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}${currencyUnsupportedMessage('BRL')}`);
  if (plan.priceCents <= 0) throw new ApiError(400, 'PAYMENT_VALIDATION', `${M.validationPrefix}o valor do plano deve ser maior que zero`);
  const billingSnapshot = billingSnapshotFor(user);
  // A configured provider in its error state refuses here (503 PAYMENTS_UNAVAILABLE), before any row.
  const provider = await ctx.payments.active().catch((err: unknown) => {
    throw isPaymentProviderError(err) ? providerErrorToApi(err) : err;
  });
  const providerName = provider.name;

  const reusable = await models.Payment.findOne({
    where: {
      userId: user.id,
      provider: providerName,
      status: 'pending',
      amountCents: plan.priceCents,
      providerPaymentId: { [Op.ne]: null },
      expiresAt: { [Op.gt]: new Date(Date.now() + REUSE_MIN_REMAINING_MS) },
    },
    include: [{ model: models.Purchase, as: 'purchase', where: { planId: plan.id, status: 'pending' }, required: true }],
    order: [['createdAt', 'DESC']],
  });
  if (reusable?.purchase) return { payment: reusable, purchase: reusable.purchase, reused: true };

  const expiresAt = new Date(Date.now() + PIX_EXPIRATION_MINUTES * 60_000);
  const { purchase, payment } = await ctx.sequelize.transaction(async (transaction) => {
    const purchase = await models.Purchase.create(
      {
        userId: user.id,
        planId: plan.id,
        planSnapshot: plan.snapshot(),
        amountCents: plan.priceCents,
        currency: plan.currency,
        provider: providerName,
        method: 'pix',
        billingSnapshot,
      },
      { transaction },
    );
    await models.PurchaseTransition.create(
      { purchaseId: purchase.id, fromStatus: null, toStatus: 'pending', reason: 'Compra criada (PIX)', actor: `user:${user.id}` },
      { transaction },
    );
    const payment = await models.Payment.create(
      { purchaseId: purchase.id, userId: user.id, provider: providerName, amountCents: plan.priceCents, currency: plan.currency, expiresAt },
      { transaction },
    );
    return { purchase, payment };
  });

  try {
    const remote = await provider.createPix({
      amountCents: plan.priceCents,
      description: `aabify - ${plan.name}`,
      payerEmail: user.email,
      externalReference: purchase.id,
      expiresAt,
      idempotencyKey: `aabify-pix-${payment.id}`,
      notificationUrl: providerName === 'mercadopago' ? ctx.payments.notificationUrl() : undefined,
    });
    if (!remote.qrCode) throw new Error(`provider ${providerName} answered a PIX charge without a code`);
    await payment.update({
      providerPaymentId: remote.id,
      providerStatus: remote.rawStatus,
      providerStatusDetail: remote.statusDetail,
      qrCode: remote.qrCode,
      qrCodeBase64: remote.qrCodeBase64 ?? (await qrPngBase64(remote.qrCode)),
      ticketUrl: remote.ticketUrl,
    });
  } catch (err) {
    ctx.logger.error({ err, paymentId: payment.id, provider: providerName }, 'PIX charge could not be created');
    await cancelPaymentLocally(ctx, payment.id, { actor: 'system', reason: 'Falha ao gerar a cobrança PIX no provedor' }).catch((e: unknown) =>
      ctx.logger.error({ err: e, paymentId: payment.id }, 'could not cancel the failed charge'),
    );
    if (isPaymentProviderError(err)) throw providerErrorToApi(err);
    throw new ApiError(500, 'PIX_CREATE_FAILED', M.internal);
  }
  await purchase.reload();
  return { payment, purchase, reused: false };
}
