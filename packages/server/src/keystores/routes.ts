import { Router } from 'express';
import { KEYSTORE_MESSAGES, keystoreUploadSchema, type KeystoreMetadata } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth, requireReauth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { deleteKeystore, findKeystore, presentKeystore, saveKeystore } from './service.js';
import { signedInActor } from '../audit/requestActor.js';

/**
 * /api/account — the signed-in user's own settings.
 *   PUT /keystore { keystore (base64), storePassword, alias?, keyPassword?, fileName? }
 *       → 200 { message, keystore: metadata } (replaces any previous one); 422 with the
 *       engine's code (BAD_KEYSTORE, KEYSTORE_PASSWORD, KEYSTORE_ALIAS) when it does not open
 *   GET /keystore → { keystore: metadata | null } (null: none stored, an empty state, not an error) — never the key itself
 *   DELETE /keystore → 204 | 404
 * Strictly personal: there is no admin route to a user's keystore. Replacing or removing it
 * takes a session that recently proved the password (403 SESSION_REQUIRED for API tokens, 403
 * REAUTH_REQUIRED for an older session); reading its public facts is open to `read` tokens.
 */
export function createAccountRouter(ctx: AppContext): Router {
  const router = Router();
  const change = [requireAuth(ctx), requireReauth];

  router.put('/keystore', ...change, validate(keystoreUploadSchema), async (req, res) => {
    const user = authUser(req);
    const saved = await saveKeystore(ctx, signedInActor(req), user.id, inputOf(req, keystoreUploadSchema));
    const body: { message: string; keystore: KeystoreMetadata } = { message: KEYSTORE_MESSAGES.saved, keystore: presentKeystore(saved) };
    res.json(body);
  });

  router.get('/keystore', requireAuth(ctx, { token: 'account:read' }), async (req, res) => {
    const row = await findKeystore(ctx, authUser(req).id);
    const body: { keystore: KeystoreMetadata | null } = { keystore: row ? presentKeystore(row) : null };
    res.json(body);
  });

  router.delete('/keystore', ...change, async (req, res) => {
    if (!(await deleteKeystore(ctx, signedInActor(req), authUser(req).id))) throw ApiError.notFound(KEYSTORE_MESSAGES.notFound, 'KEYSTORE_NOT_FOUND');
    res.status(204).end();
  });

  return router;
}
