import { Router, type Request, type RequestHandler } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import {
  ACCOUNT_MESSAGES,
  CONVERSION_LIMITS,
  CONVERSION_MESSAGES,
  historyQuerySchema,
  parseConversionOptions,
  type BulkConversionResponse,
  type ConversionHistoryResponse,
  type DownloadLinkResponse,
  type TestApkResponse,
} from '@aabify/shared';
import type { Credential } from '../accounts/authService.js';
import type { AppContext } from '../context.js';
import type { Conversion, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { accessRefusal, authUser, bearerToken, limitedCredentialCheck, requireAuth, requireVerifiedEmail, type RouteAccess } from '../http/guards.js';
import { inputOf, validate } from '../http/validate.js';
import { clientAddress, clientKey, rateLimit } from '../http/rateLimit.js';
import { secretsInUrl } from '../http/requestLog.js';
import { likePattern } from '../http/listing.js';
import { findOwned, findOwnedThrough } from '../http/ownership.js';
import { describeConversion, presentConversion, presentStart } from './presenter.js';
import { cancelConversion } from './canceller.js';
import { readConversionSettings } from './settings.js';
import { presentUsage, usagePlanId } from './usagePresenter.js';
import { startConversion, submitConversion } from './conversionSubmitter.js';
import { paymentRequired } from './credits.js';
import { assertPendingUploadRoom } from './pendingUploads.js';
import { conversionForToken, issueDownloadToken, streamAab } from './downloads.js';
import { readLogs } from './logs.js';
import { assertMayDownload, conversionAuditTarget, presentForViewer, recordSupportAccess } from './access.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';
import { MULTIPART_OVERHEAD, receiveApkUpload, type UploadedApk } from './upload.js';
import { openUpdateStream } from '../realtime/sse.js';
import { isStreamTicketShaped, mintStreamTicket, redeemStreamTicket } from './streamTickets.js';
import { requireKeystoreForSigning } from '../keystores/service.js';
import { requirePlayKeyForVersionCode } from '../play/credentials.js';
import { assertUploadedBundle, optionsForUpload } from './aabUpload.js';
import { createConversionLimitsRouter } from './limitsRoutes.js';
import { ensureTestApk, testApkMessage } from './testApk.js';
import { qrPngBase64 } from '../http/qrCodes.js';

/**
 * /api/conversion.
 *   POST /convert (multipart apk + options) → 201 start response
 *   POST /convert/bulk (admin; repeated apks, ≤ 10) → { message, conversions, errors }
 *   POST /upload → 201 pending conversion; POST /start/:id → start response
 *   GET /status/:id, /history, /usage, /logs/:id; DELETE /logs/:id; POST /cancel/:id
 *   POST /generate-download-link/:id; GET /download/:id, /temp-download/:id
 *   POST /test-apk/:id → the universal APK of the AAB (built once per signing key) and a
 *     short-lived link to it with its QR code ("Testar no celular")
 *   POST /updates/:id/ticket → 201 { ticket, expiresAt, expiresIn } (single use, 60 s)
 *   GET /updates/:id?token=<ticket> (or a bearer header) → server-sent events (429
 *     TOO_MANY_LIVE_CONNECTIONS past the user's live connections on this process)
 * Every route: rate limit (submissions) → auth → validate → handler; another user's
 * conversion answers 404 exactly like a missing one.
 */
export function createConversionRouter(ctx: AppContext): Router {
  const router = Router();
  // What an API token needs on each route (http/guards.ts).
  const reads = requireAuth(ctx, { token: 'conversions:read' });
  const writes = requireAuth(ctx, { token: 'conversions:write' });
  const downloads = requireAuth(ctx, { token: 'downloads' });
  const owned = (req: Request): Promise<Conversion> =>
    findOwned(ctx.models.Conversion, req.params.id, authUser(req), { notFoundMessage: CONVERSION_MESSAGES.notFound, notFoundCode: 'CONVERSION_NOT_FOUND' });

  /** Per-user submission rate; after auth because it counts per account. */
  const submissionRate: RequestHandler = (req, res, next) => rateLimit(ctx.conversionSubmitLimiter, clientKey, CONVERSION_MESSAGES.rateLimited)(req, res, next);

  /** 402 before a byte of the upload is read when the user cannot convert at all. */
  const canSubmit: RequestHandler = (req, _res, next) => {
    const refused = paymentRequired(authUser(req));
    if (refused) throw refused;
    next();
  };

  /** 409 before a byte is stored when the user's not-yet-started uploads fill their quota. */
  const pendingUploadRoom: RequestHandler = async (req, _res, next) => {
    // A declared body surely over the room is refused at once; the exact size is checked on submission.
    const declared = Number(req.headers['content-length']);
    const atLeast = Number.isFinite(declared) ? Math.max(0, declared - MULTIPART_OVERHEAD) : 0;
    await assertPendingUploadRoom(ctx, authUser(req).id, await readConversionSettings(ctx.settings), atLeast);
    next();
  };

  const receiveOne = async (req: Request): Promise<{ upload: UploadedApk; options: ReturnType<typeof parseConversionOptions> }> => {
    const settings = await readConversionSettings(ctx.settings);
    // One conversion: an APK, or a set (split APKs, .apks/.xapk/.apkm/.zip, OBB files) whose sum the limit bounds.
    const result = await receiveApkUpload(req, {
      storage: ctx.storage,
      maxFileSize: settings.maxFileSize,
      fileField: 'apk',
      maxFiles: CONVERSION_LIMITS.uploadMaxFiles,
      tooManyFilesMessage: CONVERSION_MESSAGES.tooManyUploadFiles,
      set: true,
    });
    const upload = result.files[0];
    if (!upload) throw ApiError.badRequest(CONVERSION_MESSAGES.noFile, 'NO_FILE');
    if (upload.kind === 'aab-to-apks') await assertUploadedBundle(ctx.storage, upload);
    const userId = authUser(req).id;
    const parsed = parseConversionOptions(result.fields.options);
    const forKind = optionsForUpload(upload.kind, parsed);
    const options = await requirePlayKeyForVersionCode(ctx, userId, await requireKeystoreForSigning(ctx, userId, forKind));
    if (!options.ok) for (const key of [upload.key, ...(upload.parts ?? []).map((p) => p.key)]) await ctx.storage.delete(key);
    return { upload, options };
  };

  const submit = (start: boolean): RequestHandler => async (req, res) => {
    const user = authUser(req);
    const { upload, options } = await receiveOne(req);
    if (!options.ok) throw new ApiError(400, options.code ?? 'INVALID_OPTIONS', options.message, { fields: options.fields });
    const conversion = await submitConversion(ctx, { user, upload, options: options.options, start });
    const queue = await ctx.conversionStats.infoOf(conversion);
    res.status(201).json({
      ...presentStart(conversion, queue, start ? CONVERSION_MESSAGES.started : CONVERSION_MESSAGES.uploaded),
      conversion: presentConversion(conversion, { queue, retentionDays: (await readConversionSettings(ctx.settings)).retentionDays }),
    });
  };

  router.use(createConversionLimitsRouter(ctx));
  router.post('/convert', writes, requireVerifiedEmail(ctx), submissionRate, canSubmit, submit(true));
  router.post('/upload', writes, requireVerifiedEmail(ctx), submissionRate, canSubmit, pendingUploadRoom, submit(false));

  router.post('/convert/bulk', requireAuth(ctx, { admin: true }), submissionRate, async (req, res) => {
    const user = authUser(req);
    const settings = await readConversionSettings(ctx.settings);
    const result = await receiveApkUpload(req, {
      storage: ctx.storage,
      maxFileSize: settings.maxFileSize,
      fileField: 'apks',
      maxFiles: CONVERSION_LIMITS.bulkMaxFiles,
      tooManyFilesMessage: CONVERSION_MESSAGES.tooManyFiles,
    });
    if (result.files.length === 0 && result.rejected.length === 0) throw ApiError.badRequest(CONVERSION_MESSAGES.noFilesSelected, 'NO_FILE');
    const options = await requirePlayKeyForVersionCode(ctx, user.id, await requireKeystoreForSigning(ctx, user.id, optionsForUpload('apk-to-aab', parseConversionOptions(result.fields.options))));
    if (!options.ok) {
      await Promise.all(result.files.map((f) => ctx.storage.delete(f.key)));
      throw new ApiError(400, options.code ?? 'INVALID_OPTIONS', options.message, { fields: options.fields });
    }
    const body: BulkConversionResponse = { message: '', conversions: [], errors: [] };
    for (const r of result.rejected) body.errors.push({ fileName: r.fileName, error: r.error.message, code: r.error.code });
    for (const upload of result.files) {
      try {
        const c = await submitConversion(ctx, { user, upload, options: options.options, start: true });
        const q = await ctx.conversionStats.infoOf(c, settings);
        body.conversions.push({ conversionId: c.id, originalFileName: c.fileName, fileName: c.fileName, fileSize: c.fileSize, queuePosition: q.queuePosition, estimatedTime: q.estimatedTime });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        body.errors.push({ fileName: upload.fileName, error: err.message, code: err.code });
      }
    }
    body.message = CONVERSION_MESSAGES.bulkDone(body.conversions.length, body.errors.length);
    res.status(body.conversions.length ? 201 : 400).json(body);
  });

  router.post('/start/:id', writes, requireVerifiedEmail(ctx), submissionRate, async (req, res) => {
    const user = authUser(req);
    await owned(req);
    const conversion = await startConversion(ctx, user, String(req.params.id));
    res.json(presentStart(conversion, await ctx.conversionStats.infoOf(conversion), CONVERSION_MESSAGES.started));
  });

  router.get('/status/:id', reads, async (req, res) => {
    // The most polled route: the row from memory while it is unchanged (no query).
    const c = await findOwnedThrough(ctx.models.Conversion, req.params.id, authUser(req), (id) => ctx.conversionRows.get(id, req.ioMark), {
      notFoundMessage: CONVERSION_MESSAGES.notFound,
      notFoundCode: 'CONVERSION_NOT_FOUND',
    });
    await recordSupportAccess(ctx, req, authUser(req), c, 'conversion.viewed');
    res.json(await presentForViewer(ctx, c, authUser(req), await describeConversion(ctx, c)));
  });

  router.get('/history', reads, validate(historyQuerySchema, 'query'), async (req, res) => {
    const user = authUser(req);
    const q = inputOf(req, historyQuerySchema);
    const where: WhereOptions<Conversion> & Record<string | symbol, unknown> = { userId: user.id };
    if (q.search) where.fileName = { [Op.iLike]: likePattern(q.search) };
    if (q.status && q.status !== 'all') where.status = { [Op.in]: q.status.split(',').map((s) => s.trim()) };
    const { rows, count } = await ctx.models.Conversion.findAndCountAll({
      where,
      order: [[q.sortBy, q.sortOrder.toUpperCase()], ['id', 'ASC']],
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    });
    const settings = await readConversionSettings(ctx.settings);
    const conversions = await Promise.all(
      rows.map(async (c) => presentConversion(c, { queue: await ctx.conversionStats.infoOf(c, settings), retentionDays: settings.retentionDays })),
    );
    const totalPages = Math.max(1, Math.ceil(count / q.limit));
    const body: ConversionHistoryResponse = {
      conversions,
      total: count,
      page: q.page,
      limit: q.limit,
      totalPages,
      hasNextPage: q.page < totalPages,
      hasPreviousPage: q.page > 1,
    };
    res.json(body);
  });

  router.get('/usage', reads, async (req, res) => {
    const user = await ctx.models.User.findByPk(authUser(req).id);
    if (!user) throw ApiError.unauthorized();
    const active = await ctx.models.Conversion.count({ where: { userId: user.id, status: { [Op.in]: ['pending', 'queued', 'processing'] } } });
    const planId = usagePlanId(user);
    const plan = planId ? await ctx.models.Plan.findByPk(planId, { attributes: ['id', 'name'] }) : null;
    res.json(presentUsage(user, active, plan?.name ?? null));
  });

  router.get('/logs/:id', reads, async (req, res) => {
    const c = await owned(req);
    await recordSupportAccess(ctx, req, authUser(req), c, 'conversion.viewed');
    const logs = await readLogs(ctx.models, c.id);
    res.json({ conversionId: c.id, logs, total: logs.length });
  });

  router.delete('/logs/:id', writes, async (req, res) => {
    const c = await owned(req);
    const user = authUser(req);
    const deleted = await ctx.sequelize.transaction(async (transaction) => {
      const count = await ctx.models.ConversionLog.destroy({ where: { conversionId: c.id }, transaction });
      if (c.userId !== user.id) {
        await recordAudit(ctx, { action: 'conversion.logs_cleared', actor: signedInActor(req), target: conversionAuditTarget(c), accountId: c.userId, details: { deleted: count } }, { transaction });
      }
      return count;
    });
    res.json({ message: CONVERSION_MESSAGES.logsCleared, conversionId: c.id, deleted });
  });

  router.post('/cancel/:id', writes, async (req, res) => {
    const c = await owned(req);
    // An admin cancelling a customer's conversion: recorded with the cancellation.
    const audit = c.userId !== authUser(req).id ? { actor: signedInActor(req) } : undefined;
    const cancelled = await cancelConversion(ctx, c.id, { audit });
    res.json({ message: CONVERSION_MESSAGES.cancelled, conversion: await describeConversion(ctx, cancelled) });
  });

  router.post('/generate-download-link/:id', downloads, async (req, res) => {
    const c = await owned(req);
    await assertMayDownload(ctx, c, authUser(req));
    await recordSupportAccess(ctx, req, authUser(req), c, 'conversion.downloaded', { how: 'download-link' });
    const t = await issueDownloadToken(ctx, c, req.auth!);
    const body: DownloadLinkResponse = { ...t, conversionId: c.id, downloadLink: t.downloadUrl, link: t.downloadUrl };
    res.json(body);
  });

  router.post('/test-apk/:id', downloads, submissionRate, async (req, res) => {
    const owner = await owned(req);
    const user = authUser(req);
    await assertMayDownload(ctx, owner, user);
    await recordSupportAccess(ctx, req, user, owner, 'conversion.downloaded', { how: 'test-apk' });
    const c = await ensureTestApk(ctx, owner);
    const apk = c.testApk!;
    const t = await issueDownloadToken(ctx, c, req.auth!, 'test-apk');
    const body: TestApkResponse = {
      conversionId: c.id,
      filename: t.filename,
      fileSize: apk.size,
      testKey: apk.testKey,
      certificateSha256: apk.certificateSha256,
      message: testApkMessage(apk),
      downloadUrl: t.downloadUrl,
      expiresIn: t.expiresIn,
      expiresAt: t.expiresAt,
      qrCodePng: /^https?:\/\//.test(t.downloadUrl) ? await qrPngBase64(t.downloadUrl) : null,
    };
    res.json(body);
  });

  router.get('/download/:id', downloads, async (req, res) => {
    const c = await owned(req);
    await assertMayDownload(ctx, c, authUser(req));
    await recordSupportAccess(ctx, req, authUser(req), c, 'conversion.downloaded', { how: 'download' });
    await streamAab(req, res, ctx.storage, c);
  });

  /** Bearer token, or ?token= holding a download token of this conversion (a link opened in a tab). */
  router.get('/temp-download/:id', secretsInUrl({ query: ['token'] }), async (req, res) => {
    const queryToken = typeof req.query.token === 'string' ? req.query.token : undefined;
    let conversion: Conversion;
    if (queryToken && !bearerToken(req)) {
      conversion = await limitedCredentialCheck(ctx, clientAddress(req), async () => {
        const found = await conversionForToken(ctx, queryToken);
        if (found.id !== req.params.id) throw ApiError.notFound(CONVERSION_MESSAGES.notFound, 'CONVERSION_NOT_FOUND');
        return found;
      });
    } else {
      const { user } = await userFromRequest(ctx, req, { token: 'downloads' });
      conversion = await findOwned(ctx.models.Conversion, req.params.id, user, { notFoundMessage: CONVERSION_MESSAGES.notFound, notFoundCode: 'CONVERSION_NOT_FOUND' });
      await assertMayDownload(ctx, conversion, user);
      await recordSupportAccess(ctx, req, user, conversion, 'conversion.downloaded', { how: 'download' });
    }
    await streamAab(req, res, ctx.storage, conversion, { redirect: true });
  });

  const streamable = (id: unknown, user: User) =>
    findOwned(ctx.models.Conversion, id, user, { notFoundMessage: CONVERSION_MESSAGES.notFoundOrUnauthorized, notFoundCode: 'CONVERSION_NOT_FOUND' });

  /** A ticket for one event stream, so a long-lived token never has to go in its URL. */
  router.post('/updates/:id/ticket', reads, async (req, res) => {
    const c = await streamable(req.params.id, authUser(req));
    res.status(201).json(await mintStreamTicket(ctx, c, req.auth!.credential));
  });

  /** ?token= holds a stream ticket; a long-lived token is accepted only in the Authorization header. */
  router.get('/updates/:id', secretsInUrl({ query: ['token'] }), async (req, res) => {
    const id = String(req.params.id);
    const queryToken = typeof req.query.token === 'string' ? req.query.token : undefined;
    let viewer: { user: User; credential: Credential };
    if (queryToken !== undefined) {
      if (!isStreamTicketShaped(queryToken)) throw ApiError.unauthorized(CONVERSION_MESSAGES.streamTicketRequired, 'STREAM_TICKET_REQUIRED');
      viewer = await limitedCredentialCheck(ctx, clientAddress(req), () => redeemStreamTicket(ctx, queryToken, id));
    } else {
      viewer = await userFromRequest(ctx, req, { token: 'conversions:read' });
    }
    const c = await streamable(id, viewer.user);
    // One of the user's live-connection slots (429 when they hold them all), freed when the stream closes.
    res.on('close', ctx.liveAccess.claimConnection(viewer.user.id));
    await openUpdateStream(req, res, ctx, c, (end) => ctx.liveAccess.track({ credential: viewer.credential, role: viewer.user.role, conversionId: c.id, end }));
  });

  return router;
}

/**
 * The user (and credential) of the request's bearer token, under requireAuth's per-address
 * limit and with requireAuth's access rules.
 */
export async function userFromRequest(ctx: AppContext, req: Request, access: RouteAccess): Promise<{ user: User; credential: Credential }> {
  const raw = bearerToken(req);
  if (!raw) throw ApiError.unauthorized(CONVERSION_MESSAGES.tokenMissing || ACCOUNT_MESSAGES.tokenMissing, 'TOKEN_MISSING');
  const result = await limitedCredentialCheck(ctx, clientAddress(req), async () => {
    const result = await ctx.auth.authenticateToken(raw, req.ioMark);
    if (!result.ok) throw ApiError.unauthorized(result.message, result.code);
    return result;
  });
  const refused = accessRefusal(result, access);
  if (refused) throw refused;
  return { user: result.user, credential: result.credential };
}
