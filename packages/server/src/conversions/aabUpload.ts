/**
 * An uploaded `.aab` is taken for an AAB → APK conversion only when its content is a bundle: a
 * zip whose base module has its manifest (`base/manifest/AndroidManifest.xml`, a protocol-buffer
 * XML naming the package). The name alone proves nothing; a file that is not a bundle is refused
 * at the upload (400 NOT_AN_AAB) and deleted, before any credit moves.
 */
import { isConverterError, readBundleIdentity } from '@aabify/converter';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/index.js';
import type { UploadedApk } from './upload.js';

export function notAnAab(): ApiError {
  return new ApiError(400, 'NOT_AN_AAB', CONVERSION_MESSAGES.notAnAab, { fields: { apk: CONVERSION_MESSAGES.notAnAab } });
}

/** Resolves when `upload` (an `.aab`) is a bundle; otherwise deletes it and throws NOT_AN_AAB. */
export async function assertUploadedBundle(storage: Storage, upload: UploadedApk): Promise<void> {
  let failure: unknown;
  const copy = await storage.localCopy(upload.key);
  try {
    // The engine's zip reader with its limits: a hostile file fails with a coded error here too.
    await readBundleIdentity(copy.path);
  } catch (err) {
    failure = err;
  } finally {
    await copy.release().catch(() => undefined);
  }
  if (failure === undefined) return;
  // No row will ever point at the file.
  await storage.delete(upload.key).catch(() => undefined);
  throw isConverterError(failure) ? notAnAab() : failure;
}
