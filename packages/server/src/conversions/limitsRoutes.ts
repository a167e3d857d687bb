import { Router } from 'express';
import type { ConversionLimitsResponse, DeviceProfilesResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/guards.js';
import { readConversionSettings } from './settings.js';
import { deviceProfilesJson } from './aabToApks.js';

/**
 * What the converter page offers before an upload (authenticated):
 * - GET /api/conversion/limits → { maxFileSize } in bytes: the admin setting upload.maxFileSize
 *   (1–500 MB, default 100 MB), so the drop-zone shows and enforces the limit the upload obeys;
 * - GET /api/conversion/device-profiles → { profiles: [{ id, label }] }: the device profiles an
 *   `.aab` may ask a device set (`.apks`) for (aabToApks.ts).
 */
export function createConversionLimitsRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/limits', requireAuth(ctx, { token: 'conversions:read' }), async (_req, res) => {
    const { maxFileSize } = await readConversionSettings(ctx.settings);
    const body: ConversionLimitsResponse = { maxFileSize };
    res.json(body);
  });
  router.get('/device-profiles', requireAuth(ctx, { token: 'conversions:read' }), (_req, res) => {
    const body: DeviceProfilesResponse = { profiles: deviceProfilesJson() };
    res.json(body);
  });
  return router;
}
