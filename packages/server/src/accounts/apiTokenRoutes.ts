import { Router } from 'express';
import {
  ACCOUNT_MESSAGES,
  API_TOKENS_PER_USER,
  createApiTokenSchema,
  type ApiTokenJson,
  type CreatedApiTokenResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, emailNotVerifiedError, requireAuth } from '../http/guards.js';
import { validate, inputOf } from '../http/validate.js';
import { findOwned } from '../http/ownership.js';
import { generateApiToken } from './tokens.js';
import { presentApiToken } from './apiTokenPresenter.js';

/**
 * Personal API tokens, mounted at /api/auth/tokens. Each acts with its owner's rights; the
 * secret is in the creation answer only. A token cannot mint tokens (a session can), nor can
 * an account whose address is not confirmed where e-mail is delivered (403 EMAIL_NOT_VERIFIED).
 *
 * POST / { name } → 201 { id, name, prefix, createdAt, lastUsedAt, token, message }
 * GET /           → { tokens: [...] } (newest first, no secrets)
 * DELETE /:id     → 204 (another user's token: 404)
 */
export function createApiTokensRouter(ctx: AppContext): Router {
  const router = Router();
  const { ApiToken } = ctx.models;

  router.post('/', requireAuth(ctx), validate(createApiTokenSchema), async (req, res) => {
    const user = authUser(req);
    if (req.auth?.method !== 'jwt') throw ApiError.forbidden(ACCOUNT_MESSAGES.apiTokenNeedsSession, 'SESSION_REQUIRED');
    // Registering needs no confirmed address: without this, whoever registered someone else's
    // address could keep a token after the owner takes the account back (recovery.ts). Only
    // where e-mail is delivered: without SMTP_URL no address can be confirmed (nor an account
    // taken back by a link), and the CLI's sign-in, which makes a token, would be shut for all.
    if (!user.emailVerifiedAt && ctx.config.mail.smtpUrl) throw emailNotVerifiedError(ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail);
    const { name } = inputOf(req, createApiTokenSchema);
    if ((await ApiToken.count({ where: { userId: user.id } })) >= API_TOKENS_PER_USER) {
      throw ApiError.conflict(ACCOUNT_MESSAGES.apiTokenLimit, 'API_TOKEN_LIMIT');
    }
    const secret = generateApiToken();
    const token = await ApiToken.create({ userId: user.id, name, tokenHash: secret.hash, prefix: secret.prefix });
    ctx.logger.info({ userId: user.id, apiTokenId: token.id }, 'api token created');
    await ctx.mail.apiTokenCreated(user, token);
    const body: CreatedApiTokenResponse = { ...presentApiToken(token), token: secret.token, message: ACCOUNT_MESSAGES.apiTokenCreated };
    res.status(201).json(body);
  });

  router.get('/', requireAuth(ctx), async (req, res) => {
    const user = authUser(req);
    const tokens = await ApiToken.findAll({ where: { userId: user.id }, order: [['createdAt', 'DESC']] });
    const body: { tokens: ApiTokenJson[] } = { tokens: tokens.map(presentApiToken) };
    res.json(body);
  });

  router.delete('/:id', requireAuth(ctx), async (req, res) => {
    const user = authUser(req);
    // Tokens are personal: an admin revokes only their own here, like everyone.
    const token = await findOwned(ApiToken, req.params.id, user, {
      adminBypass: false,
      notFoundMessage: ACCOUNT_MESSAGES.apiTokenNotFound,
      notFoundCode: 'API_TOKEN_NOT_FOUND',
    });
    await token.destroy();
    // Sockets and event streams opened with this token close too.
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id, apiTokenId: token.id }, 'api token revoked');
    res.status(204).end();
  });

  return router;
}
