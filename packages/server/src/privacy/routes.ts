import { Router } from 'express';
import { PRIVACY_MESSAGES, deleteAccountSchema, type DataExportListResponse, type DataExportRequestResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { signedInActor } from '../audit/requestActor.js';
import { verifyPassword } from '../accounts/password.js';
import { useSecondFactor } from '../accounts/twoFactor.js';
import { deleteOwnAccount } from './accountDeleter.js';
import { findOwned } from '../http/ownership.js';
import { recordAudit } from '../audit/recorder.js';
import { userAuditTarget } from '../accounts/userPresenter.js';
import { streamStoredFile } from '../conversions/downloads.js';
import { downloadableExport, presentDataExport, requestDataExport } from './dataExport.js';

/** The exports a customer sees in Meus dados: the latest few. */
const LISTED_EXPORTS = 10;

/**
 * /api/account — the account's own data rights ("Meus dados"):
 *   DELETE / { password, code? } → { message }: the account is deleted (privacy/accountDeleter.ts);
 *     400 WRONG_PASSWORD / TWO_FACTOR_CODE_REQUIRED / TWO_FACTOR_CODE_INVALID with the field;
 *     403 ADMIN_CANNOT_DELETE_SELF. A session only; open while new terms wait for acceptance
 *     (refusing them must not stop a customer from leaving). Wrong answers count as password changes do.
 *   GET /exports → { exports }: the latest exports of the account's data, newest first.
 *   POST /exports → 202 { export, message }: an export is queued (privacy/dataExport.ts);
 *     409 EXPORT_IN_PROGRESS, 429 EXPORT_LIMIT.
 *   GET /exports/:id/file → the zip (ranges as other downloads); another account's: 404;
 *     409 EXPORT_NOT_READY / EXPORT_FAILED, 410 EXPORT_EXPIRED.
 * All with a session only, and open while new terms wait for acceptance, as deletion is.
 */
export function createPrivacyRouter(ctx: AppContext): Router {
  const router = Router();
  router.delete('/', requireAuth(ctx, { beforeLegalAcceptance: true }), validate(deleteAccountSchema), async (req, res) => {
    const user = authUser(req);
    const { password, code } = inputOf(req, deleteAccountSchema);
    if (user.hasAdminRole()) throw ApiError.forbidden(PRIVACY_MESSAGES.adminCannotDeleteSelf, 'ADMIN_CANNOT_DELETE_SELF');
    const limiter = ctx.auth.limiters.passwordChangePerUser;
    const limit = await limiter.consume(user.id);
    if (limit.limited) throw ApiError.tooManyRequests(limit.retryAfter);
    if (!(await verifyPassword(password, user.passwordHash))) {
      throw new ApiError(400, 'WRONG_PASSWORD', PRIVACY_MESSAGES.wrongPassword, { fields: { password: PRIVACY_MESSAGES.wrongPassword } });
    }
    if (user.twoFactorEnabled()) {
      if (!code) throw new ApiError(400, 'TWO_FACTOR_CODE_REQUIRED', PRIVACY_MESSAGES.codeRequired, { fields: { code: PRIVACY_MESSAGES.codeRequired } });
      if (!(await useSecondFactor(ctx, user.id, code))) {
        throw new ApiError(400, 'TWO_FACTOR_CODE_INVALID', PRIVACY_MESSAGES.codeInvalid, { fields: { code: PRIVACY_MESSAGES.codeInvalid } });
      }
    }
    await limiter.reset(user.id);
    await deleteOwnAccount(ctx, signedInActor(req), user);
    res.json({ message: PRIVACY_MESSAGES.accountDeleted, fiscalRecord: PRIVACY_MESSAGES.fiscalRecordKept });
  });

  const own = requireAuth(ctx, { beforeLegalAcceptance: true });
  router.get('/exports', own, async (req, res) => {
    const rows = await ctx.models.DataExport.findAll({ where: { userId: authUser(req).id }, order: [['requestedAt', 'DESC']], limit: LISTED_EXPORTS });
    const body: DataExportListResponse = { exports: rows.map(presentDataExport) };
    res.json(body);
  });

  router.post('/exports', own, async (req, res) => {
    const row = await requestDataExport(ctx, signedInActor(req), authUser(req));
    const message = ctx.mail.outbox.transport === 'smtp' ? PRIVACY_MESSAGES.exportRequestedMail : PRIVACY_MESSAGES.exportRequested;
    const body: DataExportRequestResponse = { export: presentDataExport(row), message };
    res.status(202).json(body);
  });

  router.get('/exports/:id/file', own, async (req, res) => {
    const user = authUser(req);
    const row = await findOwned(ctx.models.DataExport, req.params.id, user, { adminBypass: false, notFoundMessage: PRIVACY_MESSAGES.exportNotFound, notFoundCode: 'EXPORT_NOT_FOUND' });
    const file = downloadableExport(row);
    // One entry per download, not per resumed range.
    if (req.method === 'GET' && !req.headers.range) {
      await recordAudit(ctx, { action: 'account.data_export_downloaded', actor: signedInActor(req), target: userAuditTarget(user), accountId: user.id, details: { exportId: row.id } });
    }
    await streamStoredFile(req, res, ctx.storage, { ...file, contentType: 'application/zip' }, {});
  });
  return router;
}
