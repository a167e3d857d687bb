import { Router } from 'express';
import type { ConversionLimitsResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/guards.js';
import { readConversionSettings } from './settings.js';

/**
 * GET /api/conversion/limits (authenticated) → { maxFileSize } in bytes: the admin setting
 * upload.maxFileSize (1–500 MB, default 100 MB), so the drop-zone shows and enforces the
 * limit the upload itself obeys.
 */
export function createConversionLimitsRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/limits', requireAuth(ctx, { token: 'conversions:read' }), async (_req, res) => {
    const { maxFileSize } = await readConversionSettings(ctx.settings);
    const body: ConversionLimitsResponse = { maxFileSize };
    res.json(body);
  });
  return router;
}
