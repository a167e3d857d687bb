/**
 * Multipart uploads streamed straight into storage with busboy: never buffered whole, cut off
 * at the size limit (413, the partial file removed), the extension and the zip signature
 * checked on the way. After a fatal error the rest of the request body is read and dropped,
 * so the client still gets its answer and the connection stays usable.
 *
 * Three shapes: one APK (`maxFiles: 1`), a bulk of APKs each its own conversion, and a set
 * (`set: true`): every file of the request belongs to one conversion — an APK or a split set
 * (.apks, .xapk, .apkm, .zip), more APKs of the same app, OBB files — and the size limit
 * applies to their sum. A set may instead be one `.aab` alone: an AAB → APK conversion.
 */
import { randomUUID } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { CONVERSION_MESSAGES, HIDDEN_CHARACTERS, hasApkExtension, hasUploadExtension, isAabFileName, isObbFileName, type ConversionKind } from '@aabify/shared';
import { ApiError } from '../http/errors.js';
import { storageKeys, type Storage } from '../storage/index.js';

/** A file of a set beside the first one: more APKs of the split set, or an OBB. */
export interface UploadedPart {
  key: string;
  fileName: string;
  size: number;
  obb: boolean;
}

export interface UploadedApk {
  conversionId: string;
  /** An .aab (sent alone) makes APKs; anything else an AAB. Its content is checked apart (aabUpload.ts). */
  kind: ConversionKind;
  fileName: string;
  /** Bytes of every file of the conversion. */
  size: number;
  key: string;
  /** The other files of a set upload, in the order they came. */
  parts?: UploadedPart[];
}

export interface RejectedFile {
  fileName: string;
  error: ApiError;
}

export interface UploadResult {
  files: UploadedApk[];
  rejected: RejectedFile[];
  fields: Record<string, string>;
}

export interface UploadOptions {
  storage: Storage;
  /** Bytes per upload; 0 = no limit (upload.maxFileSize). */
  maxFileSize: number;
  /** Form field of the file(s): `apk` (single) or `apks` (bulk). */
  fileField: string;
  /** More files than this is a fatal 400 (bulk, set); with 1, a bad file is fatal too. */
  maxFiles: number;
  tooManyFilesMessage?: string;
  /** Every file is part of one conversion (split sets, OBBs); the size limit is on their sum. */
  set?: boolean;
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Room for multipart boundaries and the small fields around the file(s). */
export const MULTIPART_OVERHEAD = 64 * 1024;

export const tooLarge = (maxBytes: number) => new ApiError(413, 'FILE_TOO_LARGE', CONVERSION_MESSAGES.fileTooLarge(maxBytes), { details: { maxFileSize: maxBytes } });
const notApk = () => new ApiError(400, 'INVALID_FILE_TYPE', CONVERSION_MESSAGES.apkExtension, { fields: { apk: CONVERSION_MESSAGES.apkExtension } });
const notUploadType = () => new ApiError(400, 'INVALID_FILE_TYPE', CONVERSION_MESSAGES.uploadExtension, { fields: { apk: CONVERSION_MESSAGES.uploadExtension } });
const onlyObb = () => new ApiError(400, 'NO_FILE', CONVERSION_MESSAGES.onlyObb);
const aabNotAlone = () => new ApiError(400, 'AAB_NOT_ALONE', CONVERSION_MESSAGES.aabNotAlone);
const notZip = () => new ApiError(400, 'NOT_A_ZIP', CONVERSION_MESSAGES.notAZip);
const emptyFile = () => new ApiError(400, 'EMPTY_FILE', CONVERSION_MESSAGES.emptyFile);

class FileTooLargeSignal extends Error {}

/** Bytes a whole set may still take (0 = no limit). */
interface SizeBudget {
  max: number;
  used: number;
}

/**
 * Passes bytes through; fails the stream when the first four are not a zip local header (unless
 * `zip` is false: OBBs and .apkm files, whose encryption the engine reports) or when the set's
 * files together pass the budget.
 */
class ZipSignatureCheck extends Transform {
  private head = Buffer.alloc(0);
  private checked = false;
  bytes = 0;

  constructor(
    private readonly zip = true,
    private readonly budget?: SizeBudget,
  ) {
    super();
    if (!zip) this.checked = true;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.budget && this.budget.max > 0 && (this.budget.used += chunk.length) > this.budget.max) return done(new FileTooLargeSignal());
    if (!this.checked) {
      this.head = Buffer.concat([this.head, chunk]).subarray(0, 4);
      if (this.head.length >= 4) {
        this.checked = true;
        if (!this.head.equals(ZIP_SIGNATURE)) return done(notZip());
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.bytes === 0) return done(emptyFile());
    if (!this.checked) return done(notZip());
    done();
  }
}

/** The name an uploaded file is kept under: no path, no hidden characters, at most 255 characters. */
/**
 * The name as the customer sees it everywhere after: without hidden characters or path
 * separators, in NFC (macOS sends accents decomposed), at most 255 characters — counted by code
 * point, so an emoji is never cut in half.
 */
function keptFileName(sent: string | undefined): string {
  const cleaned = (sent ?? '').replace(HIDDEN_CHARACTERS, '').replace(/[\\/]/g, '_').normalize('NFC');
  return Array.from(cleaned).slice(0, 255).join('') || 'arquivo.apk';
}

/** Reads and discards what is left of the request body. */
function drain(req: Request): void {
  req.unpipe();
  req.resume();
}

export function receiveApkUpload(req: Request, opts: UploadOptions): Promise<UploadResult> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    drain(req);
    return Promise.reject(ApiError.badRequest(CONVERSION_MESSAGES.noFile, 'NO_FILE'));
  }
  // A set fails as a whole: one bad file is the request's error, as with a single APK.
  const single = opts.maxFiles === 1 || opts.set === true;
  const declared = Number(req.headers['content-length']);
  const limited = opts.maxFileSize > 0;
  const budget: SizeBudget | undefined = opts.set ? { max: opts.maxFileSize, used: 0 } : undefined;
  if (single && limited && Number.isFinite(declared) && declared > opts.maxFileSize + MULTIPART_OVERHEAD) {
    drain(req);
    return Promise.reject(tooLarge(opts.maxFileSize));
  }

  return new Promise<UploadResult>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // Browsers send the file name as raw UTF-8 in filename="…" (busboy would read it as
        // Latin-1: "versÃ£o"); clients that send filename*=UTF-8'' are read the same either way.
        defParamCharset: 'utf8',
        limits: { fileSize: limited ? opts.maxFileSize : Infinity, files: opts.maxFiles, fields: 20, fieldSize: 64 * 1024, parts: opts.maxFiles + 20 },
      });
    } catch {
      drain(req);
      reject(ApiError.badRequest(CONVERSION_MESSAGES.noFile, 'NO_FILE'));
      return;
    }
    const files: UploadedApk[] = [];
    const parts: (UploadedPart & { index: number })[] = [];
    const setId = randomUUID();
    let arrived = 0;
    const rejected: RejectedFile[] = [];
    const fields: Record<string, string> = {};
    const writes: Array<Promise<void>> = [];
    let settled = false;

    /** Ends the request with `err` (an ApiError, or a storage failure: ENOSPC, S3) and removes what it stored. */
    const fatal = (err: unknown) => {
      if (settled) return;
      settled = true;
      drain(req);
      // The file being written ends with an error (no more bytes will come), so its write fails
      // and leaves nothing: no partial file, no open multipart upload.
      bb.destroy();
      // Whatever was already stored goes away.
      void Promise.allSettled(writes).then(() => Promise.all([...files, ...parts].map((f) => opts.storage.delete(f.key).catch(() => undefined))));
      reject(err);
    };

    bb.on('field', (name, value) => {
      fields[name] = value;
    });

    bb.on('file', (name, stream, info) => {
      // busboy destroys the open file stream with an error when the form ends early.
      stream.on('error', () => undefined);
      if (settled || name !== opts.fileField) {
        stream.resume();
        return;
      }
      const fileName = keptFileName(info.filename);
      if (opts.set ? !hasUploadExtension(fileName) : !hasApkExtension(fileName)) {
        stream.resume();
        if (single) return fatal(opts.set ? notUploadType() : notApk());
        rejected.push({ fileName, error: notApk() });
        return;
      }
      const index = arrived++;
      const conversionId = opts.set ? setId : randomUUID();
      const key = index === 0 || !opts.set ? storageKeys.apk(conversionId) : storageKeys.part(conversionId, index);
      const obb = opts.set === true && isObbFileName(fileName);
      const check = new ZipSignatureCheck(!(opts.set && (obb || /\.apkm$/i.test(fileName))), budget);
      // Storage attaches its pipeline a tick later; an early error must not go unhandled.
      check.on('error', () => undefined);
      stream.on('limit', () => check.destroy(new FileTooLargeSignal()));
      stream.on('error', (err) => check.destroy(err));
      const write = opts.storage.write(key, stream.pipe(check)).then(
        (size) => {
          if (opts.set) parts.push({ index, key, fileName, size, obb });
          else files.push({ conversionId, kind: 'apk-to-aab', fileName, size, key });
        },
        (err: unknown) => {
          stream.resume();
          const error = err instanceof FileTooLargeSignal ? tooLarge(opts.maxFileSize) : err instanceof ApiError ? err : undefined;
          // The store failed (no space, S3 down): the request fails, and the files already
          // written go too — no row will ever point at them.
          if (!error) return fatal(err);
          if (single) fatal(error);
          else rejected.push({ fileName, error });
        },
      );
      writes.push(write);
    });

    bb.on('filesLimit', () => {
      if (opts.maxFiles > 1) fatal(ApiError.badRequest(opts.tooManyFilesMessage ?? CONVERSION_MESSAGES.tooManyFiles, 'TOO_MANY_FILES'));
    });

    bb.on('error', () => fatal(ApiError.badRequest(CONVERSION_MESSAGES.uploadAborted, 'UPLOAD_ABORTED')));

    bb.on('close', () => {
      void Promise.allSettled(writes).then(() => {
        if (settled) return;
        if (opts.set && parts.length > 0) {
          parts.sort((a, b) => a.index - b.index);
          // The first APK or set is the conversion's file (its name, its key); the rest ride along.
          const first = parts.find((p) => !p.obb);
          if (!first) return fatal(onlyObb());
          const aab = parts.some((p) => isAabFileName(p.fileName));
          if (aab && parts.length > 1) return fatal(aabNotAlone());
          const rest = parts.filter((p) => p !== first);
          files.push({
            conversionId: setId,
            kind: aab ? 'aab-to-apks' : 'apk-to-aab',
            fileName: first.fileName,
            size: parts.reduce((n, p) => n + p.size, 0),
            key: first.key,
            ...(rest.length > 0 ? { parts: rest.map(({ key, fileName, size, obb }) => ({ key, fileName, size, obb })) } : {}),
          });
        }
        settled = true;
        resolve({ files, rejected, fields });
      });
    });

    req.on('aborted', () => fatal(ApiError.badRequest(CONVERSION_MESSAGES.uploadAborted, 'UPLOAD_ABORTED')));
    req.pipe(bb);
  });
}
