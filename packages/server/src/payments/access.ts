/** Loading a payment, purchase or renewal for the signed-in user (owner or admin; others get 404). */
import type { Includeable } from 'sequelize';
import { PAYMENT_MESSAGES as M } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Payment, Purchase, Renewal, User } from '../models/index.js';
import { findOwned, findOwnedOrNull } from '../http/ownership.js';
import { ApiError } from '../http/errors.js';

export async function ownedPayment(ctx: Pick<AppContext, 'models'>, id: unknown, user: User): Promise<Payment> {
  return findOwned(ctx.models.Payment, typeof id === 'string' ? id : undefined, user, {
    notFoundMessage: M.paymentNotFound,
    notFoundCode: 'PAYMENT_NOT_FOUND',
  });
}

/** What presenting a purchase reads beside its row: its payments (method, status, boleto), its renewal and its NFS-e. */
export function purchaseViewIncludes(ctx: Pick<AppContext, 'models'>): Includeable[] {
  return [
    { model: ctx.models.Payment, as: 'payments', attributes: ['id', 'createdAt', 'status', 'method', 'installments', 'ticketUrl'] },
    { model: ctx.models.Renewal, as: 'renewal' },
    { model: ctx.models.FiscalNote, as: 'fiscalNote' },
  ];
}

export async function ownedPurchase(ctx: Pick<AppContext, 'models'>, id: unknown, user: User): Promise<Purchase> {
  return findOwned(ctx.models.Purchase, typeof id === 'string' ? id : undefined, user, {
    notFoundMessage: M.purchaseNotFound,
    notFoundCode: 'PURCHASE_NOT_FOUND',
    include: purchaseViewIncludes(ctx),
  });
}

/** A purchase with what its presentation reads (after a change). */
export async function purchaseView(ctx: Pick<AppContext, 'models'>, id: string): Promise<Purchase | null> {
  return ctx.models.Purchase.findByPk(id, { include: purchaseViewIncludes(ctx) });
}

export async function ownedRenewal(ctx: Pick<AppContext, 'models'>, id: unknown, user: User): Promise<Renewal> {
  return findOwned(ctx.models.Renewal, typeof id === 'string' ? id : undefined, user, {
    notFoundMessage: M.renewalNotFound,
    notFoundCode: 'RENEWAL_NOT_FOUND',
  });
}

/** A payment by its own id, or the latest payment of a purchase by the purchase id. */
export async function ownedPaymentOrPurchasePayment(ctx: Pick<AppContext, 'models'>, id: unknown, user: User): Promise<Payment> {
  const key = typeof id === 'string' ? id : undefined;
  const payment = await findOwnedOrNull(ctx.models.Payment, key, user);
  if (payment) return payment;
  const purchase = await findOwnedOrNull(ctx.models.Purchase, key, user);
  const latest = purchase ? await ctx.models.Payment.findOne({ where: { purchaseId: purchase.id }, order: [['createdAt', 'DESC']] }) : null;
  if (!latest) throw ApiError.notFound(M.paymentNotFound, 'PAYMENT_NOT_FOUND');
  return latest;
}

export async function latestPayment(ctx: Pick<AppContext, 'models'>, purchaseId: string): Promise<Payment | null> {
  return ctx.models.Payment.findOne({ where: { purchaseId }, order: [['createdAt', 'DESC']] });
}

export async function latestPaymentId(ctx: Pick<AppContext, 'models'>, purchaseId: string): Promise<string | null> {
  const payment = await ctx.models.Payment.findOne({ where: { purchaseId }, order: [['createdAt', 'DESC']], attributes: ['id'] });
  return payment?.id ?? null;
}
