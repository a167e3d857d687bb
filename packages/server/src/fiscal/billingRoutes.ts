import { Router } from 'express';
import { BILLING_MESSAGES, billingDetailsSchema, presentBillingDetails, type BillingDetailsResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { rateLimit } from '../http/rateLimit.js';
import { signedInActor } from '../audit/requestActor.js';
import { saveBillingDetails } from './billing.js';

/**
 * GET /api/account/billing → { billingDetails | null } (a session, or an API token with account:read)
 * PUT /api/account/billing {document, name, email, cep, street, number, complement?, district, city, cityCode?, state}
 *   → { billingDetails, message } (a session); 400 VALIDATION_ERROR with a pt-BR message per field
 */
export function createBillingRouter(ctx: AppContext): Router {
  const router = Router();
  const writes = rateLimit(ctx.rateLimits.limiter('billing-details', { points: 30, windowMs: 10 * 60_000 }));

  router.get('/billing', requireAuth(ctx, { token: 'account:read' }), (req, res) => {
    const { billingDetails } = authUser(req);
    const body: BillingDetailsResponse = { billingDetails: billingDetails ? presentBillingDetails(billingDetails) : null };
    res.json(body);
  });

  router.put('/billing', requireAuth(ctx), writes, validate(billingDetailsSchema), async (req, res) => {
    const details = inputOf(req, billingDetailsSchema);
    const saved = await saveBillingDetails(ctx, signedInActor(req), authUser(req), details);
    const body: BillingDetailsResponse = { billingDetails: saved.billingDetails ? presentBillingDetails(saved.billingDetails) : null, message: BILLING_MESSAGES.saved };
    res.json(body);
  });
  return router;
}
