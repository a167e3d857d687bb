import { Router } from 'express';
import { FISCAL_MESSAGES as M, hasReceipt } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { ApiError } from '../http/errors.js';
import { rateLimit } from '../http/rateLimit.js';
import { attachmentDisposition } from '../http/attachment.js';
import { ownedPurchase } from '../payments/access.js';
import { presentSnapshot } from '../payments/presenter.js';
import { readSeller } from './seller.js';
import { renderReceipt } from './receipt.js';

/**
 * GET /api/payments/purchase/{id}/receipt → the purchase's PDF receipt (its owner, or an admin;
 * another user's purchase is a 404). Only approved purchases, or refunded after approval
 * (marked "Estornado"), have one: others answer 409 RECEIPT_UNAVAILABLE.
 */
export function createReceiptRouter(ctx: AppContext): Router {
  const router = Router();
  const limit = rateLimit(ctx.rateLimits.limiter('receipts', { points: 60, windowMs: 60_000 }));

  router.get('/purchase/:id/receipt', requireAuth(ctx, { token: 'account:read' }), limit, async (req, res) => {
    const purchase = await ownedPurchase(ctx, req.params.id, authUser(req));
    if (!hasReceipt(purchase.status) || !purchase.approvedAt) throw ApiError.conflict(M.receiptUnavailable, 'RECEIPT_UNAVAILABLE');
    const owner = await ctx.models.User.findByPk(purchase.userId, { attributes: ['id', 'email'], paranoid: false });
    const latest = [...(purchase.payments ?? [])].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    const pdf = await renderReceipt({
      purchaseId: purchase.id,
      planName: presentSnapshot(purchase.planSnapshot).name,
      amountCents: purchase.amountCents,
      currency: purchase.currency,
      method: latest?.method ?? purchase.method ?? null,
      installments: latest?.installments ?? purchase.installments ?? null,
      paidAt: purchase.approvedAt,
      refunded: purchase.status === 'refunded',
      buyer: purchase.billingSnapshot,
      accountEmail: owner?.email ?? '',
      seller: await readSeller(ctx.settings),
    });
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', attachmentDisposition(`recibo-aabify-${purchase.id.slice(0, 8)}.pdf`));
    res.setHeader('Cache-Control', 'private, no-store');
    pdf.on('error', (err: unknown) => {
      ctx.logger.error({ err, purchaseId: purchase.id }, 'receipt not rendered');
      res.destroy();
    });
    pdf.pipe(res);
  });
  return router;
}
