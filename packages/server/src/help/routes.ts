import { Router } from 'express';
import type { SupportContact } from '@aabify/shared';
import type { AppContext } from '../context.js';

export async function supportContact(ctx: Pick<AppContext, 'settings'>): Promise<SupportContact> {
  return { email: await ctx.settings.get('support.email'), whatsapp: await ctx.settings.get('support.whatsapp') };
}

/**
 * GET /api/support → { email, whatsapp }: how customers reach the operator (settings
 * support.email, support.whatsapp), public — the help centre and the dead ends (no plan to buy,
 * a failed payment) show it, signed in or not.
 */
export function createSupportRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json(await supportContact(ctx));
  });
  return router;
}
