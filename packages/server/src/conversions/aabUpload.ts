/**
 * An uploaded `.aab` is taken for an AAB → APK conversion only when its content is a bundle: a
 * zip whose base module has its manifest (`base/manifest/AndroidManifest.xml`, a protocol-buffer
 * XML naming the package). The name alone proves nothing; a file that is not a bundle is refused
 * at the upload (400 NOT_AN_AAB) and deleted, before any credit moves. Its options are checked for
 * its kind here too: what to build (the universal APK, or the set of a known device profile).
 */
import { DEVICE_PROFILES, isConverterError, readBundleIdentity } from '@aabify/converter';
import { CONVERSION_MESSAGES, checkOptionsOfAab, checkOptionsOfApk, type ConversionKind, type ParsedOptions } from '@aabify/shared';
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

/**
 * The upload's options checked for its kind: an `.aab` takes `sign` and what to build (a device
 * set only for one of the engine's device profiles: 400 UNKNOWN_DEVICE_PROFILE otherwise); an APK
 * or split set takes no such choice (400 DEVICE_SET_NOT_FOR_APK).
 */
export function optionsForUpload(kind: ConversionKind, parsed: ParsedOptions): ParsedOptions {
  if (!parsed.ok) return parsed;
  return kind === 'aab-to-apks' ? checkOptionsOfAab(parsed.options, DEVICE_PROFILES.map((p) => p.id)) : checkOptionsOfApk(parsed.options);
}
