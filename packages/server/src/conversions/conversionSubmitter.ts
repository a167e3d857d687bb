/**
 * Submitting a conversion: the uploaded APK becomes a conversion row, its credit reserved in
 * the same transaction with the user's row locked (so parallel submissions cannot share the
 * last credit, nor pass the cap on queued conversions together), then its job is queued and the
 * owner's clients are told. `start: false` is the two-step flow (POST /conversion/upload, then
 * POST /conversion/start/{id}).
 */
import { CONVERSION_MESSAGES, type ConversionOptions } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { paymentRequired, reserveCredit } from './credits.js';
import { assertPendingUploadRoom } from './pendingUploads.js';
import { assertActiveConversionRoom } from './activeConversions.js';
import { enqueueFor } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';
import { readConversionSettings } from './settings.js';
import type { UploadedApk } from './upload.js';

export interface Submission {
  user: User;
  upload: UploadedApk;
  options: ConversionOptions;
  start: boolean;
}

type Ctx = Pick<AppContext, 'sequelize' | 'models' | 'settings' | 'storage' | 'mail' | 'logger' | 'queue' | 'conversionLogs' | 'conversionEvents' | 'queueBroadcaster'>;

export async function submitConversion(ctx: Ctx, s: Submission): Promise<Conversion> {
  let conversion: Conversion;
  try {
    const settings = await readConversionSettings(ctx.settings);
    conversion = await ctx.sequelize.transaction(async (transaction) => {
      const user = await ctx.models.User.findByPk(s.user.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
      if (!user) throw ApiError.unauthorized();
      let creditState: Conversion['creditState'] = 'none';
      if (s.start) {
        const refused = paymentRequired(user);
        if (refused) throw refused;
        // Before the credit moves: a refusal leaves nothing to give back.
        await assertActiveConversionRoom(ctx, user.id, settings.maxActivePerUser, transaction);
        creditState = await reserveCredit(user, transaction);
        if (creditState === 'reserved' && user.credits === 1) await ctx.mail.creditsLow(user, { transaction });
      } else {
        const refused = paymentRequired(user);
        if (refused) throw refused;
        // Exact bytes now; the user's row lock makes parallel uploads count one after the other.
        await assertPendingUploadRoom(ctx, user.id, settings, s.upload.size, transaction);
      }
      const now = new Date();
      return ctx.models.Conversion.create(
        {
          id: s.upload.conversionId,
          userId: user.id,
          fileName: s.upload.fileName,
          fileSize: s.upload.size,
          kind: s.upload.kind,
          options: s.options,
          apkKey: s.upload.key,
          inputFiles: s.upload.parts ?? null,
          status: s.start ? 'queued' : 'pending',
          queuedAt: s.start ? now : null,
          creditState,
        },
        { transaction },
      );
    });
  } catch (err) {
    for (const key of [s.upload.key, ...(s.upload.parts ?? []).map((p) => p.key)]) await ctx.storage.delete(key).catch(() => undefined);
    throw err;
  }
  await ctx.conversionLogs.write(conversion.id, 'info', `Arquivo recebido: ${conversion.fileName} (${conversion.fileSize} bytes)`, 'upload');
  ctx.conversionEvents.created(conversion.userId, { conversionId: conversion.id, fileName: conversion.fileName, fileSize: conversion.fileSize });
  if (s.start) await queued(ctx, conversion);
  return conversion;
}

/** POST /conversion/start/{id}: a pending conversion of the user goes to the queue. */
export async function startConversion(ctx: Ctx, user: User, conversionId: string): Promise<Conversion> {
  const settings = await readConversionSettings(ctx.settings);
  const conversion = await ctx.sequelize.transaction(async (transaction) => {
    const locked = await ctx.models.User.findByPk(user.id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!locked) throw ApiError.unauthorized();
    const where: Record<string, string> = { id: conversionId };
    if (!user.isAdmin()) where.userId = user.id;
    const row = await ctx.models.Conversion.findOne({ where, transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!row) throw ApiError.notFound(CONVERSION_MESSAGES.notFound, 'CONVERSION_NOT_FOUND');
    if (row.status !== 'pending') throw ApiError.conflict(CONVERSION_MESSAGES.notPending, 'CONVERSION_NOT_PENDING');
    // The credit is the owner's: an admin starting someone else's upload charges that user.
    const owner = row.userId === locked.id ? locked : await ctx.models.User.findByPk(row.userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!owner) throw ApiError.notFound(CONVERSION_MESSAGES.notFound, 'CONVERSION_NOT_FOUND');
    const refused = paymentRequired(owner);
    if (refused) throw refused;
    // The queue it joins is the owner's, counted under the owner's row lock.
    await assertActiveConversionRoom(ctx, owner.id, settings.maxActivePerUser, transaction);
    const creditState = await reserveCredit(owner, transaction);
    if (creditState === 'reserved' && owner.credits === 1) await ctx.mail.creditsLow(owner, { transaction });
    await row.update({ status: 'queued', queuedAt: new Date(), creditState }, { transaction });
    return row;
  });
  await queued(ctx, conversion);
  return conversion;
}

async function queued(ctx: Ctx, conversion: Conversion): Promise<void> {
  await ctx.conversionLogs.write(conversion.id, 'info', 'Conversão adicionada à fila', 'queue');
  ctx.conversionEvents.update({ type: 'status_change', conversionId: conversion.id, timestamp: new Date().toISOString(), status: 'queued', progress: 0 });
  try {
    await enqueueFor(ctx.queue, JOBS.conversionRun, 'conversionId', conversion.id);
  } catch (err) {
    // The row is queued; the periodic safety net (jobs/conversions.ts) writes the job.
    ctx.logger.error({ err, conversionId: conversion.id }, 'conversion job not written; will retry');
  }
  ctx.queueBroadcaster.changed();
}
