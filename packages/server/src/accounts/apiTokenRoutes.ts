import { Router } from 'express';
import {
  ACCOUNT_MESSAGES,
  API_TOKENS_PER_USER,
  SECURITY_MESSAGES,
  createApiTokenSchema,
  type ApiTokenJson,
  type CreatedApiTokenResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, emailNotVerifiedError, requireAuth, requireReauth } from '../http/guards.js';
import { validate, inputOf } from '../http/validate.js';
import { findOwned } from '../http/ownership.js';
import { generateApiToken } from './tokens.js';
import { presentApiToken } from './apiTokenPresenter.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

/**
 * Personal API tokens, mounted at /api/auth/tokens. Each acts with its owner's rights within
 * the scopes chosen at creation, never an admin's (http/guards.ts); the secret is in the
 * creation answer only. Only a session that recently proved the password mints tokens (403
 * SESSION_REQUIRED for a token, REAUTH_REQUIRED for an old session), and not on an account
 * whose address is not confirmed where e-mail is delivered (403 EMAIL_NOT_VERIFIED).
 * Making and revoking a token are recorded in the audit trail (never the secret).
 *
 * POST / { name, scopes? } → 201 { id, name, prefix, scopes, createdAt, lastUsedAt, token, message }
 * GET /                    → { tokens: [...] } (newest first, no secrets; a token with `read` too)
 * DELETE /:id              → 204 (another user's token: 404; a token may revoke only itself)
 */
export function createApiTokensRouter(ctx: AppContext): Router {
  const router = Router();
  const { ApiToken } = ctx.models;

  router.post('/', requireAuth(ctx), requireReauth, validate(createApiTokenSchema), async (req, res) => {
    const user = authUser(req);
    // Registering needs no confirmed address: without this, whoever registered someone else's
    // address could keep a token after the owner takes the account back (recovery.ts). Only
    // where e-mail is delivered: without SMTP_URL no address can be confirmed (nor an account
    // taken back by a link), and the CLI's sign-in, which makes a token, would be shut for all.
    if (!user.emailVerifiedAt && ctx.config.mail.smtpUrl) throw emailNotVerifiedError(ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail);
    const { name, scopes } = inputOf(req, createApiTokenSchema);
    if ((await ApiToken.count({ where: { userId: user.id } })) >= API_TOKENS_PER_USER) {
      throw ApiError.conflict(ACCOUNT_MESSAGES.apiTokenLimit, 'API_TOKEN_LIMIT');
    }
    const secret = generateApiToken();
    const token = await ctx.sequelize.transaction(async (transaction) => {
      const created = await ApiToken.create({ userId: user.id, name, tokenHash: secret.hash, prefix: secret.prefix, scopes }, { transaction });
      await recordAudit(
        ctx,
        { action: 'api_token.created', actor: signedInActor(req), target: { type: 'api_token', id: created.id, label: name }, accountId: user.id, after: { name, prefix: secret.prefix, scopes } },
        { transaction },
      );
      return created;
    });
    ctx.logger.info({ userId: user.id, apiTokenId: token.id, scopes }, 'api token created');
    await ctx.mail.apiTokenCreated(user, token);
    const body: CreatedApiTokenResponse = { ...presentApiToken(token), token: secret.token, message: ACCOUNT_MESSAGES.apiTokenCreated };
    res.status(201).json(body);
  });

  router.get('/', requireAuth(ctx, { token: 'account:read' }), async (req, res) => {
    const user = authUser(req);
    const tokens = await ApiToken.findAll({ where: { userId: user.id }, order: [['createdAt', 'DESC']] });
    const body: { tokens: ApiTokenJson[] } = { tokens: tokens.map(presentApiToken) };
    res.json(body);
  });

  router.delete('/:id', requireAuth(ctx, { token: 'any' }), async (req, res) => {
    const user = authUser(req);
    // A leaked token must not be able to revoke the account's other pipelines: only itself.
    if (req.auth!.method === 'api_token' && req.params.id !== req.auth!.apiTokenId) {
      throw ApiError.forbidden(SECURITY_MESSAGES.tokenRevokesOnlyItself, 'TOKEN_REVOKES_ONLY_ITSELF');
    }
    // Tokens are personal: an admin revokes only their own here, like everyone.
    const token = await findOwned(ApiToken, req.params.id, user, {
      adminBypass: false,
      notFoundMessage: ACCOUNT_MESSAGES.apiTokenNotFound,
      notFoundCode: 'API_TOKEN_NOT_FOUND',
    });
    await ctx.sequelize.transaction(async (transaction) => {
      await token.destroy({ transaction });
      await recordAudit(
        ctx,
        { action: 'api_token.revoked', actor: signedInActor(req), target: { type: 'api_token', id: token.id, label: token.name }, accountId: user.id, before: { name: token.name, prefix: token.prefix, scopes: token.scopes } },
        { transaction },
      );
    });
    // Sockets and event streams opened with this token close too.
    await ctx.liveAccess.accessChanged(user.id);
    ctx.logger.info({ userId: user.id, apiTokenId: token.id }, 'api token revoked');
    res.status(204).end();
  });

  return router;
}
