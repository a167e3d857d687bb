import { Router } from 'express';
import {
  SECURITY_MESSAGES,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  type MessageResponse,
  type RecoveryCodesResponse,
  type TwoFactorStatus,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth, requireReauth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { verifyPassword } from './password.js';
import { signedInActor } from '../audit/requestActor.js';
import { beginEnrolment, confirmEnrolment, disableTwoFactor, recoveryCodesLeft, regenerateRecoveryCodes, useSecondFactor } from './twoFactor.js';

/**
 * Two-factor sign-in of the signed-in account (accounts/twoFactor.ts), mounted at
 * /api/auth/2fa; a session's alone. A session limited to enrolment may use the first three.
 *
 * GET /                 → { enabled, enabledAt, recoveryCodesLeft, requiredForAccount }
 * POST /setup           → { secret, otpauthUrl, qrCode } (a recent password: 403 REAUTH_REQUIRED; 409 when enabled)
 * POST /enable { code } → { message, recoveryCodes } (the app's first code turns it on)
 * POST /recovery-codes  → { message, recoveryCodes } (new ones; the old stop working; recent password)
 * POST /disable { password, code } → { message }
 */
export function createTwoFactorRouter(ctx: AppContext): Router {
  const router = Router();
  const enrolling = requireAuth(ctx, { duringEnrolment: true });
  const requiredFor = async (admin: boolean) => admin && (await ctx.settings.get('accounts.requireAdminTwoFactor')) === true;

  router.get('/', enrolling, async (req, res) => {
    const user = authUser(req);
    const body: TwoFactorStatus = {
      enabled: user.twoFactorEnabled(),
      enabledAt: user.totpEnabledAt ? user.totpEnabledAt.toISOString() : null,
      recoveryCodesLeft: recoveryCodesLeft(user),
      requiredForAccount: await requiredFor(user.hasAdminRole()),
    };
    res.json(body);
  });

  router.post('/setup', enrolling, requireReauth, async (req, res) => {
    res.json(await beginEnrolment(ctx, authUser(req).id));
  });

  router.post('/enable', enrolling, validate(twoFactorEnableSchema), async (req, res) => {
    const user = authUser(req);
    const recoveryCodes = await confirmEnrolment(ctx, signedInActor(req), user.id, inputOf(req, twoFactorEnableSchema).code);
    // Every process sees it before the answer: a session limited to enrolment is limited no more.
    await ctx.auth.changesSettled();
    ctx.logger.info({ userId: user.id }, 'two-factor sign-in enabled');
    await ctx.mail.twoFactorChanged(user, true);
    const body: RecoveryCodesResponse = { message: SECURITY_MESSAGES.twoFactorEnabled, recoveryCodes };
    res.json(body);
  });

  router.post('/recovery-codes', requireAuth(ctx), requireReauth, async (req, res) => {
    const user = authUser(req);
    const recoveryCodes = await regenerateRecoveryCodes(ctx, signedInActor(req), user.id);
    ctx.logger.info({ userId: user.id }, 'recovery codes regenerated');
    const body: RecoveryCodesResponse = { message: SECURITY_MESSAGES.recoveryCodesRegenerated, recoveryCodes };
    res.json(body);
  });

  /** The password and a code: a stolen session alone cannot turn the second step off. */
  router.post('/disable', requireAuth(ctx), validate(twoFactorDisableSchema), async (req, res) => {
    const user = authUser(req);
    if (!user.twoFactorEnabled()) throw ApiError.conflict(SECURITY_MESSAGES.twoFactorNotEnabled, 'TWO_FACTOR_NOT_ENABLED');
    const { password, code } = inputOf(req, twoFactorDisableSchema);
    const limiter = ctx.auth.limiters.reauthPerUser;
    const limit = await limiter.consume(user.id);
    if (limit.limited) throw ApiError.tooManyRequests(limit.retryAfter);
    if (!(await verifyPassword(password, user.passwordHash))) {
      throw new ApiError(400, 'WRONG_PASSWORD', SECURITY_MESSAGES.passwordWrong, { fields: { password: SECURITY_MESSAGES.passwordWrong } });
    }
    if (!(await useSecondFactor(ctx, user.id, code))) {
      throw new ApiError(400, 'TWO_FACTOR_CODE_INVALID', SECURITY_MESSAGES.twoFactorCodeInvalid, { fields: { code: SECURITY_MESSAGES.twoFactorCodeInvalid } });
    }
    await limiter.reset(user.id);
    await disableTwoFactor(ctx, signedInActor(req), user.id);
    if (await requiredFor(user.hasAdminRole())) {
      // Where administrators must have it, their sessions may only enrol again until they do.
      await ctx.models.Session.update({ enrolmentRequired: true }, { where: { userId: user.id, endedAt: null } });
    }
    await ctx.auth.changesSettled();
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id }, 'two-factor sign-in disabled');
    await ctx.mail.twoFactorChanged(user, false);
    const body: MessageResponse = { message: SECURITY_MESSAGES.twoFactorDisabled };
    res.json(body);
  });

  return router;
}
