/**
 * "Testar no celular": the universal APK of a finished conversion's AAB (the engine's
 * buildApks), built in the conversion worker pool as conversions run, signed with the account's
 * upload key when one is stored, else with the engine's test key (which Google Play refuses, and
 * the answer says so). Kept beside the AAB (storageKeys.testApk; retention deletes it with the
 * conversion's other files) and built again only when the key that should sign it changed.
 */
import { rm } from 'node:fs/promises';
import { CONVERSION_MESSAGES, TEST_APK_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion, TestApkRecord } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { storageKeys } from '../storage/index.js';
import { findKeystore, signingKeyFor } from '../keystores/service.js';
import { testApkNotAvailable } from './downloads.js';
import { readConversionSettings } from './settings.js';
import { WorkerCrashedError, WorkerLimitError } from './workerPool.js';

export type TestApkDeps = Pick<AppContext, 'models' | 'storage' | 'workerPool' | 'secrets' | 'settings' | 'logger'>;

/** Builds in flight in this process, by conversion: a second request waits for the first. */
const building = new Map<string, Promise<Conversion>>();
/**
 * Test APKs one process builds at once. They run beside the queue's conversions, outside its
 * claims, and the pool starts a worker for each task it is given: without a cap, one account
 * with many finished conversions could start as many engine threads as it asked for.
 */
export const MAX_TEST_APK_BUILDS = 2;
const BUSY_RETRY_SECONDS = 5;

/** The conversion with a test APK signed by the key that should sign it now, built if needed. */
export function ensureTestApk(ctx: TestApkDeps, conversion: Conversion): Promise<Conversion> {
  const running = building.get(conversion.id);
  if (running) return running;
  if (building.size >= MAX_TEST_APK_BUILDS) return Promise.reject(ApiError.tooManyRequests(BUSY_RETRY_SECONDS, TEST_APK_MESSAGES.busy, 'TEST_APK_BUSY'));
  const build = ensure(ctx, conversion).finally(() => building.delete(conversion.id));
  building.set(conversion.id, build);
  return build;
}

/** pt-BR: what signed the APK and what that means for Google Play. */
export function testApkMessage(record: TestApkRecord): string {
  return record.testKey || record.alias === null ? TEST_APK_MESSAGES.signedWithTestKey : TEST_APK_MESSAGES.signedWithUploadKey(record.alias);
}

async function ensure(ctx: TestApkDeps, conversion: Conversion): Promise<Conversion> {
  if (conversion.kind !== 'apk-to-aab') throw new ApiError(409, 'TEST_APK_NOT_AVAILABLE', TEST_APK_MESSAGES.alreadyAnApk);
  if (!conversion.canDownload || !conversion.aabKey) throw testApkNotAvailable();
  const keystore = await findKeystore(ctx, conversion.userId);
  const kept = conversion.testApk;
  const sameKey = kept && (keystore ? !kept.testKey && kept.certificateSha256 === keystore.certificateSha256 : kept.testKey);
  if (kept && sameKey && (await ctx.storage.size(kept.key)) !== undefined) return conversion;

  const settings = await readConversionSettings(ctx.settings);
  const input = await ctx.storage.localCopy(conversion.aabKey);
  const output = await ctx.storage.scratchPath(`${conversion.id}-test.apk`);
  try {
    const sign = keystore ? await signingKeyFor(ctx, conversion.userId) : undefined;
    const report = await ctx.workerPool
      .runApks(
        { kind: 'universal-apk', input: input.path, output, ...(sign ? { sign } : {}) },
        { deadlineMs: settings.maxDurationSeconds * 1000, timeoutMessage: CONVERSION_MESSAGES.timedOut(settings.maxDurationSeconds) },
      )
      .catch((err: unknown) => {
        if (err instanceof WorkerLimitError) throw new ApiError(503, err.code, err.userMessage);
        if (err instanceof WorkerCrashedError) throw new ApiError(503, err.code, TEST_APK_MESSAGES.failed);
        throw err;
      });
    const key = storageKeys.testApk(conversion.id);
    await ctx.storage.putFile(key, output);
    const record: TestApkRecord = {
      key,
      size: (await ctx.storage.size(key)) ?? report.sizeOut,
      testKey: report.signature.testKey,
      certificateSha256: report.signature.certificateSha256,
      alias: report.signature.testKey ? null : report.signature.alias,
    };
    // Only while the files are still kept: retention may have purged them meanwhile.
    const [count] = await ctx.models.Conversion.update({ testApk: record }, { where: { id: conversion.id, status: 'completed', filesPurgedAt: null } });
    if (count === 0) {
      await ctx.storage.delete(key);
      throw testApkNotAvailable();
    }
    ctx.logger.info({ conversionId: conversion.id, testKey: record.testKey, size: record.size }, 'test APK built');
    return (await ctx.models.Conversion.findByPk(conversion.id)) ?? conversion;
  } finally {
    await rm(output, { force: true }).catch(() => undefined);
    await input.release().catch(() => undefined);
  }
}
