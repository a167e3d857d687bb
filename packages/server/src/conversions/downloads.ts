/**
 * Downloads of converted AABs: one-hour tokens (only their SHA-256 stored; reusable within
 * the hour so an interrupted download can resume; a capped number per user) and streaming with Content-Length, single
 * byte ranges (206/416) and the .aab file name. Download links may instead redirect to a
 * short-lived presigned URL of the object store (S3_PRESIGNED_DOWNLOADS).
 *
 * A token is a capability (accounts/capabilities.ts): it records the credential that minted it
 * and opens nothing once that credential no longer holds (token revoked, signed out, password
 * changed, account deactivated or deleted).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { Op } from 'sequelize';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, TEST_APK_MESSAGES, isDeviceSet, outputFileName, testApkFileName, type DownloadTokenResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion, DownloadFile, User } from '../models/index.js';
import type { Credential } from '../accounts/authService.js';
import { capabilityHolder, recordCredential } from '../accounts/capabilities.js';
import { ApiError } from '../http/errors.js';
import { publicBaseUrl } from '../http/links.js';
import { mayDownloadFiles } from './access.js';
import type { ByteRange, Storage } from '../storage/index.js';
import { lockForTransaction } from '../db/locks.js';
import { attachmentDisposition } from '../http/attachment.js';

export const hashDownloadToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function notDownloadable(): ApiError {
  return new ApiError(409, 'NOT_DOWNLOADABLE', CONVERSION_MESSAGES.notDownloadable);
}

export function testApkNotAvailable(): ApiError {
  return new ApiError(409, 'TEST_APK_NOT_AVAILABLE', TEST_APK_MESSAGES.notAvailable);
}

/** The stored test APK of a conversion whose files are still kept, if one was built (an AAB → APK conversion's output is its APK). */
export function storedTestApk(conversion: Conversion): { key: string; filename: string } | undefined {
  if (!conversion.canDownload || !conversion.testApk || conversion.kind !== 'apk-to-aab') return undefined;
  return { key: conversion.testApk.key, filename: testApkFileName(conversion.fileName) };
}

/** Who asks for a link: the signed-in user and the credential the request (or socket) came with. */
export interface DownloadMinter {
  user: User;
  credential: Credential;
}

/**
 * A new download token of `conversion` for `minter`, dying with the minter's credential. At most CONVERSION_LIMITS.downloadTokensPerUser
 * unexpired ones per user (429 TOO_MANY_DOWNLOAD_LINKS, retryAfter = until the oldest expires):
 * every call writes a row that lives an hour, so without a cap one account could grow the table
 * at will. Only hashes are kept, so an existing token cannot be handed out again. The count and
 * the insert run under a per-user advisory lock: parallel calls cannot pass the cap together.
 */
export async function issueDownloadToken(
  ctx: Pick<AppContext, 'models' | 'sequelize' | 'config'>,
  conversion: Conversion,
  minter: DownloadMinter,
  file: DownloadFile = 'aab',
): Promise<DownloadTokenResponse> {
  const { user } = minter;
  if (!conversion.canDownload) throw notDownloadable();
  const testApk = file === 'test-apk' ? storedTestApk(conversion) : undefined;
  if (file === 'test-apk' && !testApk) throw testApkNotAvailable();
  const token = randomBytes(32).toString('base64url');
  const ttl = CONVERSION_LIMITS.downloadTokenTtlSeconds;
  const { sequelize, models } = ctx;
  const expiresAt = await sequelize.transaction(async (transaction) => {
    await lockForTransaction(sequelize, `download-tokens:${user.id}`, transaction);
    const now = new Date();
    const open = { userId: user.id, expiresAt: { [Op.gt]: now } };
    if ((await models.DownloadToken.count({ where: open, transaction })) >= CONVERSION_LIMITS.downloadTokensPerUser) {
      const oldest = await models.DownloadToken.findOne({ where: open, order: [['expiresAt', 'ASC']], attributes: ['expiresAt'], transaction });
      const wait = oldest ? Math.ceil((oldest.expiresAt.getTime() - now.getTime()) / 1000) : ttl;
      throw ApiError.tooManyRequests(Math.max(1, wait), CONVERSION_MESSAGES.tooManyDownloadLinks, 'TOO_MANY_DOWNLOAD_LINKS');
    }
    const until = new Date(now.getTime() + ttl * 1000);
    await models.DownloadToken.create(
      { tokenHash: hashDownloadToken(token), conversionId: conversion.id, userId: user.id, credential: recordCredential(minter.credential), expiresAt: until, file },
      { transaction },
    );
    return until;
  });
  return {
    downloadToken: token,
    filename: testApk ? testApk.filename : outputFileName(conversion),
    downloadUrl: `${publicBaseUrl(ctx.config)}/api/download/file/${token}`,
    expiresIn: ttl,
    expiresAt: expiresAt.toISOString(),
  };
}

const downloadTokenInvalid = () => ApiError.notFound(CONVERSION_MESSAGES.downloadNotFound, 'DOWNLOAD_TOKEN_INVALID');

/**
 * The conversion a token opens and which of its files: 404 for an unknown token, 410 once it has
 * expired. The link carries the rights of the credential that made it, so it is unknown too once
 * that credential no longer holds (revoked, signed out, password changed, account deactivated or
 * deleted) or its user may no longer download the file (an admin's support link, the setting off).
 */
export async function downloadForToken(ctx: Pick<AppContext, 'models' | 'auth' | 'settings'>, token: string): Promise<{ conversion: Conversion; file: DownloadFile }> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw downloadTokenInvalid();
  const row = await ctx.models.DownloadToken.findByPk(hashDownloadToken(token));
  if (!row) throw downloadTokenInvalid();
  if (row.expiresAt.getTime() <= Date.now()) throw new ApiError(410, 'DOWNLOAD_TOKEN_EXPIRED', CONVERSION_MESSAGES.downloadExpired);
  const conversion = await ctx.models.Conversion.findByPk(row.conversionId);
  if (!conversion) throw ApiError.notFound(CONVERSION_MESSAGES.notFound, 'CONVERSION_NOT_FOUND');
  const holder = await capabilityHolder(ctx.auth, row.credential);
  if (!holder.ok || holder.user.id !== row.userId || !(await mayDownloadFiles(ctx, conversion, holder.user))) throw downloadTokenInvalid();
  return { conversion, file: row.file };
}

/** The conversion whose output (its AAB, or the APK of AAB → APK) a token opens (a test APK's link opens no output). */
export async function conversionForToken(ctx: Pick<AppContext, 'models' | 'auth' | 'settings'>, token: string): Promise<Conversion> {
  const { conversion, file } = await downloadForToken(ctx, token);
  if (file !== 'aab') throw downloadTokenInvalid();
  return conversion;
}

/** Parses a single `bytes=` range; undefined = whole file; 'invalid' = 416. */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined | 'invalid' {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || end < start) return 'invalid';
  return { start, end };
}

/** A stored file as a download: its key, the name the browser saves it under, its type. */
export interface DownloadableFile {
  key: string;
  filename: string;
  contentType: string;
}

export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';

/**
 * Sends the conversion's output: the AAB, or the APK of an AAB → APK conversion (typed as an APK,
 * so a phone's browser offers to install it) or its device set (`.apks`). `redirect`: a download link (token) may answer 302
 * to the store's presigned URL when the store offers one; API calls with a bearer always stream
 * (clients resume with Range).
 */
export async function streamAab(req: Request, res: Response, storage: Storage, conversion: Conversion, opts: { redirect?: boolean } = {}): Promise<void> {
  if (!conversion.canDownload || !conversion.aabKey) throw notDownloadable();
  // A device set (`.apks`) is a zip of APKs, not one to install: typed as the AAB is.
  const contentType = conversion.kind === 'aab-to-apks' && !isDeviceSet(conversion.options) ? APK_CONTENT_TYPE : 'application/octet-stream';
  await streamStoredFile(req, res, storage, { key: conversion.aabKey, filename: outputFileName(conversion), contentType }, opts);
}

/** Sends the test APK, typed as an APK so a phone's browser offers to install it. */
export async function streamTestApk(req: Request, res: Response, storage: Storage, conversion: Conversion, opts: { redirect?: boolean } = {}): Promise<void> {
  const apk = storedTestApk(conversion);
  if (!apk) throw testApkNotAvailable();
  await streamStoredFile(req, res, storage, { ...apk, contentType: APK_CONTENT_TYPE }, opts);
}

/**
 * Sends a stored file as a download: Content-Length, single byte ranges (206/416), HEAD, the
 * file name (RFC 5987 `filename*`), or 302 to the store's presigned URL when `redirect` and the store offers one.
 */
export async function streamStoredFile(req: Request, res: Response, storage: Storage, file: DownloadableFile, opts: { redirect?: boolean }): Promise<void> {
  const size = await storage.size(file.key);
  if (size === undefined) throw notDownloadable();
  const { filename } = file;
  const direct = opts.redirect ? await storage.downloadUrl(file.key, { contentDisposition: attachmentDisposition(filename) }) : undefined;
  if (direct) {
    res.setHeader('Cache-Control', 'private, no-store');
    res.redirect(302, direct);
    return;
  }
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', attachmentDisposition(filename));
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Filename', encodeURIComponent(filename));
  res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Disposition, Content-Range, X-Filename');
  const range = parseRange(req.headers.range, size);
  if (range === 'invalid') {
    res.status(416).setHeader('Content-Range', `bytes */${size}`);
    res.end();
    return;
  }
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.setHeader('Content-Length', String(size));
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = await storage.read(file.key, range);
  await new Promise<void>((resolve) => {
    stream.on('error', (err) => {
      res.destroy(err);
      resolve();
    });
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}
