import { Router } from 'express';
import {
  ACCOUNT_MESSAGES,
  API_TOKENS_PER_USER,
  createApiTokenSchema,
  type ApiTokenJson,
  type CreatedApiTokenResponse,
} from '@aabify/shared';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { authUser, requireAuth } from '../../http/auth.js';
import { validate, inputOf } from '../../http/validate.js';
import { findOwned } from '../../policies/ownership.js';
import { generateApiToken } from '../../auth/tokens.js';
import { presentApiToken } from '../../presenters/apiToken.js';

/**
 * Personal API tokens, mounted at /api/auth/tokens. Each acts with its owner's rights; the
 * secret is in the creation answer only. A token cannot mint tokens (a session can).
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
    await ctx.liveAccess?.accessChanged(user.id);
    ctx.logger.info({ userId: user.id, apiTokenId: token.id }, 'api token revoked');
    res.status(204).end();
  });

  return router;
}
