import { Router } from 'express';
import { LEGAL_MESSAGES, publishLegalSchema, type AdminLegalDocumentResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { adminGuard } from '../http/guards.js';
import type { Limiter } from '../http/rateLimiter.js';
import { inputOf, validate } from '../http/validate.js';
import { signedInActor } from '../audit/requestActor.js';
import { publishLegalDocument } from './publisher.js';
import { presentLegalDocument } from './presenter.js';
import { dataProtectionOfficer, parseLegalKind } from './routes.js';

/**
 * /api/admin/legal — Admin › Termos e privacidade:
 *   GET /:kind → { document (current), versions (newest first) }
 *   GET /:kind/versions/:version → that version's text; 404 LEGAL_DOCUMENT_NOT_FOUND
 *   POST /:kind { body } → 201 { version, message }: a new version customers must accept;
 *     409 LEGAL_BODY_UNCHANGED when the text is the current one
 */
export function createAdminLegalRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));

  router.get('/:kind', async (req, res) => {
    const kind = parseLegalKind(String(req.params.kind));
    const texts = await ctx.legal.current();
    const body: AdminLegalDocumentResponse = {
      document: presentLegalDocument(texts[kind], kind === 'privacy' ? await dataProtectionOfficer(ctx) : undefined),
      versions: await ctx.legal.versions(kind),
    };
    res.json(body);
  });

  router.get('/:kind/versions/:version', async (req, res) => {
    const kind = parseLegalKind(String(req.params.kind));
    const version = Number(req.params.version);
    const text = Number.isSafeInteger(version) && version >= 1 ? await ctx.legal.version(kind, version) : null;
    if (!text) throw ApiError.notFound(LEGAL_MESSAGES.documentNotFound, 'LEGAL_DOCUMENT_NOT_FOUND');
    res.json(presentLegalDocument(text));
  });

  router.post('/:kind', validate(publishLegalSchema), async (req, res) => {
    const kind = parseLegalKind(String(req.params.kind));
    const { body } = inputOf(req, publishLegalSchema);
    const version = await publishLegalDocument(ctx, signedInActor(req), kind, body);
    ctx.logger.info({ kind, version }, 'legal document published');
    res.status(201).json({ version, message: LEGAL_MESSAGES.published });
  });

  return router;
}
