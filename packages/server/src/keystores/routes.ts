import { Router } from 'express';
import { KEYSTORE_MESSAGES, keystoreUploadSchema, type KeystoreMetadata } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { deleteKeystore, findKeystore, presentKeystore, saveKeystore } from './service.js';

/**
 * /api/account — the signed-in user's own settings.
 *   PUT /keystore { keystore (base64), storePassword, alias?, keyPassword?, fileName? }
 *       → 200 { message, keystore: metadata } (replaces any previous one); 422 with the
 *       engine's code (BAD_KEYSTORE, KEYSTORE_PASSWORD, KEYSTORE_ALIAS) when it does not open
 *   GET /keystore → { keystore: metadata } | 404 — never the key itself
 *   DELETE /keystore → 204 | 404
 * Strictly personal: there is no admin route to a user's keystore.
 */
export function createAccountRouter(ctx: AppContext): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.put('/keystore', auth, validate(keystoreUploadSchema), async (req, res) => {
    const user = authUser(req);
    const saved = await saveKeystore(ctx, user.id, inputOf(req, keystoreUploadSchema));
    const body: { message: string; keystore: KeystoreMetadata } = { message: KEYSTORE_MESSAGES.saved, keystore: presentKeystore(saved) };
    res.json(body);
  });

  router.get('/keystore', auth, async (req, res) => {
    const row = await findKeystore(ctx, authUser(req).id);
    if (!row) throw ApiError.notFound(KEYSTORE_MESSAGES.notFound, 'KEYSTORE_NOT_FOUND');
    const body: { keystore: KeystoreMetadata } = { keystore: presentKeystore(row) };
    res.json(body);
  });

  router.delete('/keystore', auth, async (req, res) => {
    if (!(await deleteKeystore(ctx, authUser(req).id))) throw ApiError.notFound(KEYSTORE_MESSAGES.notFound, 'KEYSTORE_NOT_FOUND');
    res.status(204).end();
  });

  return router;
}
