import { Router, type Request } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import { number, object, string } from 'yup';
import {
  CONVERSION_MESSAGES,
  PLAY_MESSAGES,
  PUBLICATION_STATUSES,
  playCredentialsSchema,
  playTestSchema,
  publishRequestSchema,
  type AdminPublication,
  type ApiPublication,
  type PlayCredentialsMetadata,
  type PublicationLogEntry,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Publication } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { authUser, requireAuth, requireReauth } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { clientKey, rateLimit } from '../http/rateLimit.js';
import { likePattern } from '../http/listing.js';
import { findOwned } from '../http/ownership.js';
import { deletePlayCredentials, findPlayCredentials, presentPlayCredentials, savePlayCredentials, testPlayAccess } from './credentials.js';
import { createPublication, presentPublication } from './publications.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordSupportAccess } from '../conversions/access.js';

/**
 * /api/account/play-credentials — the signed-in user's Google Play service-account key (docs/play.md).
 *   PUT { key: "<the key file's JSON text>" } → 200 { message, credentials } (replaces any previous); 422 PLAY_KEY_INVALID
 *   GET → { credentials | null } (null: none stored, an empty state) — client e-mail, project and key id only, never the key
 *   DELETE → 204 | 404
 *   POST /test { packageName } → 200 { message, credentials }: a token, an edit opened and deleted;
 *        422 with the PLAY_* code of what Google refused, 502 PLAY_UNAVAILABLE
 * Strictly personal, like the upload keystore: no admin route reaches a user's key. Replacing
 * or removing it takes a session that recently proved the password; reading its facts is open
 * to `read` tokens, testing it to `publishing` ones.
 */
export function createPlayCredentialsRouter(ctx: AppContext): Router {
  const router = Router();
  const change = [requireAuth(ctx), requireReauth];
  const testRate = rateLimit(ctx.playTestLimiter, clientKey);

  router.put('/play-credentials', ...change, validate(playCredentialsSchema), async (req, res) => {
    const saved = await savePlayCredentials(ctx, signedInActor(req), authUser(req).id, inputOf(req, playCredentialsSchema).key);
    const body: { message: string; credentials: PlayCredentialsMetadata } = { message: PLAY_MESSAGES.saved, credentials: presentPlayCredentials(saved) };
    res.json(body);
  });

  router.get('/play-credentials', requireAuth(ctx, { token: 'account:read' }), async (req, res) => {
    const row = await findPlayCredentials(ctx, authUser(req).id);
    const body: { credentials: PlayCredentialsMetadata | null } = { credentials: row ? presentPlayCredentials(row) : null };
    res.json(body);
  });

  router.delete('/play-credentials', ...change, async (req, res) => {
    if (!(await deletePlayCredentials(ctx, signedInActor(req), authUser(req).id))) throw ApiError.notFound(PLAY_MESSAGES.notFound, 'PLAY_CREDENTIALS_NOT_FOUND');
    res.status(204).end();
  });

  router.post('/play-credentials/test', requireAuth(ctx, { token: 'publications:write' }), testRate, validate(playTestSchema), async (req, res) => {
    const { packageName } = inputOf(req, playTestSchema);
    const row = await testPlayAccess(ctx, authUser(req).id, packageName);
    res.json({ message: PLAY_MESSAGES.testOk(packageName), credentials: presentPlayCredentials(row) });
  });

  return router;
}

const listQuerySchema = object({ conversionId: string().trim().required() });

/**
 * /api/publications — publishing completed conversions to Google Play.
 *   POST { conversionId, track, releaseStatus?, rolloutPercent?, releaseName?, releaseNotes? }
 *        → 201 { message, publication } (queued; follow it with `publication-update` or GET /:id)
 *        404 for another user's conversion, 409 PLAY_CREDENTIALS_REQUIRED / CONVERSION_NOT_PUBLISHABLE / PUBLICATION_IN_PROGRESS
 *   GET ?conversionId= → { publications } newest first (the conversion's history)
 *   GET /:id → { publication, logs }
 * Publishing uses the caller's own key, so only the owner publishes; admins may read (support),
 * which the audit trail records as opening the customer's conversion.
 */
export function createPublicationsRouter(ctx: AppContext): Router {
  const router = Router();
  const reads = requireAuth(ctx, { token: 'publications:read' });
  const publishRate = rateLimit(ctx.publishLimiter, clientKey, PLAY_MESSAGES.rateLimited);
  const ownedConversion = (req: Request, id: unknown, adminBypass: boolean) =>
    findOwned(ctx.models.Conversion, id, authUser(req), { adminBypass, notFoundMessage: CONVERSION_MESSAGES.notFound, notFoundCode: 'CONVERSION_NOT_FOUND' });

  router.post('/', requireAuth(ctx, { token: 'publications:write' }), publishRate, validate(publishRequestSchema), async (req, res) => {
    const input = inputOf(req, publishRequestSchema);
    const conversion = await ownedConversion(req, input.conversionId, false);
    const publication = await createPublication(ctx, authUser(req), conversion, input);
    const body: { message: string; publication: ApiPublication } = { message: PLAY_MESSAGES.queued, publication: presentPublication(publication) };
    res.status(201).json(body);
  });

  router.get('/', reads, validate(listQuerySchema, 'query'), async (req, res) => {
    const conversion = await ownedConversion(req, inputOf(req, listQuerySchema).conversionId, true);
    await recordSupportAccess(ctx, req, authUser(req), conversion, 'conversion.viewed');
    const rows = await ctx.models.Publication.findAll({ where: { conversionId: conversion.id }, order: [['createdAt', 'DESC']], limit: 100 });
    res.json({ publications: rows.map(presentPublication) });
  });

  router.get('/:id', reads, async (req, res) => {
    const publication = await findOwned(ctx.models.Publication, req.params.id, authUser(req), { notFoundMessage: PLAY_MESSAGES.publicationNotFound, notFoundCode: 'PUBLICATION_NOT_FOUND' });
    if (publication.userId !== authUser(req).id) {
      const conversion = await ctx.models.Conversion.findByPk(publication.conversionId);
      if (conversion) await recordSupportAccess(ctx, req, authUser(req), conversion, 'conversion.viewed', { publicationId: publication.id });
    }
    const body: { publication: ApiPublication; logs: PublicationLogEntry[] } = { publication: presentPublication(publication), logs: await ctx.publicationEvents.logsOf(publication.id) };
    res.json(body);
  });

  return router;
}

const adminQuerySchema = object({
  page: number().integer().min(1).default(1),
  limit: number().integer().min(1).max(100).default(20),
  status: string().oneOf(['all', ...PUBLICATION_STATUSES]).default('all'),
  search: string().trim().max(200).optional(),
});

/** /api/admin/publications — every publication, newest first, with owner and file (Admin › Conversões). */
export function createAdminPublicationsRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/', requireAuth(ctx, { admin: true }), validate(adminQuerySchema, 'query'), async (req, res) => {
    const q = inputOf(req, adminQuerySchema);
    const where: WhereOptions<Publication> & Record<string | symbol, unknown> = {};
    if (q.status !== 'all') where.status = q.status;
    if (q.search) {
      const like = likePattern(q.search);
      where[Op.or] = [{ packageName: { [Op.iLike]: like } }, { track: { [Op.iLike]: like } }];
    }
    const { rows, count } = await ctx.models.Publication.findAndCountAll({ where, order: [['createdAt', 'DESC'], ['id', 'ASC']], limit: q.limit, offset: (q.page - 1) * q.limit });
    const users = await ctx.models.User.findAll({ where: { id: [...new Set(rows.map((r) => r.userId))] }, attributes: ['id', 'email'], paranoid: false });
    const conversions = await ctx.models.Conversion.findAll({ where: { id: [...new Set(rows.map((r) => r.conversionId))] }, attributes: ['id', 'fileName'] });
    const emailOf = new Map(users.map((u) => [u.id, u.email]));
    const fileOf = new Map(conversions.map((c) => [c.id, c.fileName]));
    const publications: AdminPublication[] = rows.map((p) => ({ ...presentPublication(p), userEmail: emailOf.get(p.userId) ?? null, fileName: fileOf.get(p.conversionId) ?? null }));
    res.json({ publications, total: count, page: q.page, limit: q.limit, totalPages: Math.max(1, Math.ceil(count / q.limit)) });
  });
  return router;
}
