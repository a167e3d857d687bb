import { Router } from 'express';
import { PRIVACY_MESSAGES, deleteAccountSchema } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { signedInActor } from '../audit/requestActor.js';
import { verifyPassword } from '../accounts/password.js';
import { useSecondFactor } from '../accounts/twoFactor.js';
import { deleteOwnAccount } from './accountDeleter.js';

/**
 * /api/account — the account's own data rights ("Meus dados"):
 *   DELETE / { password, code? } → { message }: the account is deleted (privacy/accountDeleter.ts);
 *     400 WRONG_PASSWORD / TWO_FACTOR_CODE_REQUIRED / TWO_FACTOR_CODE_INVALID with the field;
 *     403 ADMIN_CANNOT_DELETE_SELF. A session only; open while new terms wait for acceptance
 *     (refusing them must not stop a customer from leaving). Wrong answers count as password changes do.
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
  return router;
}
