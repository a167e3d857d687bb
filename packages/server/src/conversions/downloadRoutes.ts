import { Router } from 'express';
import { Op } from 'sequelize';
import { CONVERSION_MESSAGES, outputFileName, type AvailableDownload } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { authUser, limitedCredentialCheck, requireAuth } from '../http/guards.js';
import { clientAddress } from '../http/rateLimit.js';
import { secretsInUrl } from '../http/requestLog.js';
import { findOwned } from '../http/ownership.js';
import { filesExpireAt } from './presenter.js';
import { assertMayDownload, recordSupportAccess } from './access.js';
import { downloadForToken, issueDownloadToken, streamAab, streamTestApk } from './downloads.js';
import { readConversionSettings } from './settings.js';

/**
 * /api/download.
 *   POST /generate-download-token/:conversionId → { downloadToken, filename, downloadUrl, expiresIn, expiresAt }
 *   GET /file/:token → the AAB (Content-Length, Range, .aab file name), or the test APK the link
 *     was made for ("Testar no celular", typed as an APK); the token alone
 *     authorises it, so the link also works opened in a new tab
 *   GET /available → { downloads }
 */
export function createDownloadRouter(ctx: AppContext): Router {
  const router = Router();
  const auth = requireAuth(ctx, { token: 'downloads' });

  router.post('/generate-download-token/:conversionId', auth, async (req, res) => {
    const user = authUser(req);
    const c = await findOwned(ctx.models.Conversion, req.params.conversionId, user, {
      notFoundMessage: CONVERSION_MESSAGES.notFound,
      notFoundCode: 'CONVERSION_NOT_FOUND',
    });
    await assertMayDownload(ctx, c, user);
    await recordSupportAccess(ctx, req, user, c, 'conversion.downloaded', { how: 'download-link' });
    res.json(await issueDownloadToken(ctx, c, req.auth!));
  });

  router.get('/file/:token', secretsInUrl({ params: ['token'] }), async (req, res) => {
    const { conversion, file } = await limitedCredentialCheck(ctx, clientAddress(req), () => downloadForToken(ctx, String(req.params.token)));
    if (file === 'test-apk') await streamTestApk(req, res, ctx.storage, conversion, { redirect: true });
    else await streamAab(req, res, ctx.storage, conversion, { redirect: true });
  });

  router.get('/available', auth, async (req, res) => {
    const user = authUser(req);
    const rows = await ctx.models.Conversion.findAll({
      where: { userId: user.id, status: 'completed', aabKey: { [Op.ne]: null }, filesPurgedAt: null },
      order: [['completedAt', 'DESC']],
      limit: 100,
    });
    const { retentionDays } = await readConversionSettings(ctx.settings);
    const downloads: AvailableDownload[] = rows.map((c) => ({
      conversionId: c.id,
      fileName: c.fileName,
      filename: outputFileName(c),
      fileSize: c.fileSize,
      convertedSize: c.aabSize ?? 0,
      completedAt: c.completedAt ? c.completedAt.toISOString() : null,
      filesExpireAt: filesExpireAt(c, retentionDays)?.toISOString() ?? null,
    }));
    res.json({ downloads, total: downloads.length });
  });

  return router;
}
