/** Checks on the file chosen in the drop-zone. */
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, UPLOAD_EXTENSIONS, hasUploadExtension, isAabFileName, isObbFileName, type ConversionKind } from '@aabify/shared';

export const MAX_APK_BYTES: number = CONVERSION_LIMITS.defaultMaxFileSize;

/**
 * The maximum size of a GET /conversion/limits answer (the upload.maxFileSize setting, bytes;
 * 0 = no limit, returned as Infinity); undefined when the answer holds no usable number (the
 * caller keeps the default).
 */
export function maxFileSizeFromAnswer(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const raw = (body as { maxFileSize?: unknown }).maxFileSize;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (n === CONVERSION_LIMITS.unlimitedMaxFileSize) return Infinity;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}
export const APK_MIME = 'application/vnd.android.package-archive';

export const APK_MESSAGES = {
  extension: CONVERSION_MESSAGES.apkExtension,
  tooLarge: CONVERSION_MESSAGES.fileTooLarge(MAX_APK_BYTES),
  /** The drop-zone's own generic rejections, in English as the drop-zone words them (docs/dashboard.md "Decisions"). */
  tooMany: 'Too many files',
  fileType: `File type must be ${APK_MIME},.apk`,
  larger: (max: number) => `File is larger than ${max} bytes`,
  smaller: (min: number) => `File is smaller than ${min} bytes`,
  mimeWarning: (type: string) => `Tipo de arquivo inesperado (${type}); o arquivo será validado pelo servidor.`,
} as const;

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

export type FileCheck =
  | { ok: true; warning?: string }
  | { ok: false; error: string };

/** Types browsers give an .apk besides the Android one; they raise no warning. */
const NEUTRAL_TYPES = new Set(['', APK_MIME, 'application/octet-stream', 'application/zip', 'application/java-archive', 'application/x-zip-compressed']);

/** The first rejection of one file: extension, then size; an unexpected MIME type is only a warning. */
export function checkApkFile(file: FileLike, maxBytes: number = MAX_APK_BYTES): FileCheck {
  if (!/\.apk$/i.test(file.name)) return { ok: false, error: APK_MESSAGES.extension };
  if (file.size > maxBytes) return { ok: false, error: CONVERSION_MESSAGES.fileTooLarge(maxBytes) };
  if (file.size < 1) return { ok: false, error: APK_MESSAGES.smaller(1) };
  if (!NEUTRAL_TYPES.has(file.type)) return { ok: true, warning: APK_MESSAGES.mimeWarning(file.type) };
  return { ok: true };
}

/** What the files chosen make: an .aab (sent alone) becomes an APK, anything else an AAB. */
export function conversionKindOf(files: readonly FileLike[]): ConversionKind {
  return files.length === 1 && isAabFileName(files[0]!.name) ? 'aab-to-apks' : 'apk-to-aab';
}

/** What the drop-zone's file input offers: APKs, split sets, OBB files and bundles. */
export const UPLOAD_ACCEPT = [APK_MIME, ...UPLOAD_EXTENSIONS].join(',');

/**
 * A drop or a pick for one conversion: an APK, a split set (.apks, .xapk, .apkm, .zip), more APKs
 * of the same app and OBB files — or one .aab alone (AAB → APK) —, up to CONVERSION_LIMITS.uploadMaxFiles, at most `maxBytes`
 * together (Infinity: no limit). The first rejection; an unexpected MIME type of an .apk only warns.
 */
export function checkDroppedFiles(files: readonly FileLike[], maxBytes: number = MAX_APK_BYTES): FileCheck {
  if (files.length === 0) return { ok: false, error: APK_MESSAGES.fileType };
  if (files.length > CONVERSION_LIMITS.uploadMaxFiles) return { ok: false, error: CONVERSION_MESSAGES.tooManyUploadFiles };
  for (const f of files) if (!hasUploadExtension(f.name)) return { ok: false, error: files.length === 1 ? CONVERSION_MESSAGES.uploadExtension : `${CONVERSION_MESSAGES.uploadExtension} (${f.name})` };
  if (files.some((f) => f.size < 1)) return { ok: false, error: APK_MESSAGES.smaller(1) };
  if (files.every((f) => isObbFileName(f.name))) return { ok: false, error: CONVERSION_MESSAGES.onlyObb };
  if (files.length > 1 && files.some((f) => isAabFileName(f.name))) return { ok: false, error: CONVERSION_MESSAGES.aabNotAlone };
  if (files.reduce((n, f) => n + f.size, 0) > maxBytes) return { ok: false, error: CONVERSION_MESSAGES.fileTooLarge(maxBytes) };
  const odd = files.find((f) => /\.apk$/i.test(f.name) && !NEUTRAL_TYPES.has(f.type));
  return odd ? { ok: true, warning: APK_MESSAGES.mimeWarning(odd.type) } : { ok: true };
}
