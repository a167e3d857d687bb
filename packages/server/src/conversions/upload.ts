/**
 * Multipart uploads streamed straight into storage with busboy: never buffered whole, cut off
 * at the size limit (413, the partial file removed), the .apk extension and the zip signature
 * checked on the way. After a fatal error the rest of the request body is read and dropped,
 * so the client still gets its answer and the connection stays usable.
 */
import { randomUUID } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { CONVERSION_MESSAGES, hasApkExtension } from '@aabify/shared';
import { ApiError } from '../http/errors.js';
import { storageKeys, type Storage } from '../storage/index.js';

export interface UploadedApk {
  conversionId: string;
  fileName: string;
  size: number;
  key: string;
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
  /** More files than this is a fatal 400 (bulk); with 1, a bad file is fatal too. */
  maxFiles: number;
  tooManyFilesMessage?: string;
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Room for multipart boundaries and the small fields around the file(s). */
const MULTIPART_OVERHEAD = 64 * 1024;

export const tooLarge = (maxBytes: number) => new ApiError(413, 'FILE_TOO_LARGE', CONVERSION_MESSAGES.fileTooLarge(maxBytes), { details: { maxFileSize: maxBytes } });
const notApk = () => new ApiError(400, 'INVALID_FILE_TYPE', CONVERSION_MESSAGES.apkExtension, { fields: { apk: CONVERSION_MESSAGES.apkExtension } });
const notZip = () => new ApiError(400, 'NOT_A_ZIP', CONVERSION_MESSAGES.notAZip);
const emptyFile = () => new ApiError(400, 'EMPTY_FILE', CONVERSION_MESSAGES.emptyFile);

class FileTooLargeSignal extends Error {}

/** Passes bytes through and fails the stream when the first four are not a zip local header. */
class ZipSignatureCheck extends Transform {
  private head = Buffer.alloc(0);
  private checked = false;
  bytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
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
  const single = opts.maxFiles === 1;
  const declared = Number(req.headers['content-length']);
  const limited = opts.maxFileSize > 0;
  if (single && limited && Number.isFinite(declared) && declared > opts.maxFileSize + MULTIPART_OVERHEAD) {
    drain(req);
    return Promise.reject(tooLarge(opts.maxFileSize));
  }

  return new Promise<UploadResult>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fileSize: limited ? opts.maxFileSize : Infinity, files: opts.maxFiles, fields: 20, fieldSize: 64 * 1024, parts: opts.maxFiles + 20 },
      });
    } catch {
      drain(req);
      reject(ApiError.badRequest(CONVERSION_MESSAGES.noFile, 'NO_FILE'));
      return;
    }
    const files: UploadedApk[] = [];
    const rejected: RejectedFile[] = [];
    const fields: Record<string, string> = {};
    const writes: Array<Promise<void>> = [];
    let settled = false;

    const fatal = (err: ApiError) => {
      if (settled) return;
      settled = true;
      drain(req);
      // Whatever was already stored goes away.
      void Promise.allSettled(writes).then(() => Promise.all(files.map((f) => opts.storage.delete(f.key).catch(() => undefined))));
      reject(err);
    };

    bb.on('field', (name, value) => {
      fields[name] = value;
    });

    bb.on('file', (name, stream, info) => {
      if (settled || name !== opts.fileField) {
        stream.resume();
        return;
      }
      const fileName = (info.filename ?? '').replace(/[\\/]/g, '_').slice(0, 255) || 'arquivo.apk';
      if (!hasApkExtension(fileName)) {
        stream.resume();
        if (single) return fatal(notApk());
        rejected.push({ fileName, error: notApk() });
        return;
      }
      const conversionId = randomUUID();
      const key = storageKeys.apk(conversionId);
      const check = new ZipSignatureCheck();
      // Storage attaches its pipeline a tick later; an early error must not go unhandled.
      check.on('error', () => undefined);
      stream.on('limit', () => check.destroy(new FileTooLargeSignal()));
      const write = opts.storage.write(key, stream.pipe(check)).then(
        (size) => {
          files.push({ conversionId, fileName, size, key });
        },
        (err: unknown) => {
          stream.resume();
          const error = err instanceof FileTooLargeSignal ? tooLarge(opts.maxFileSize) : err instanceof ApiError ? err : undefined;
          if (!error) {
            if (!settled) {
              settled = true;
              drain(req);
              reject(err);
            }
            return;
          }
          if (single) fatal(error);
          else rejected.push({ fileName, error });
        },
      );
      writes.push(write);
    });

    bb.on('filesLimit', () => {
      if (!single) fatal(ApiError.badRequest(opts.tooManyFilesMessage ?? CONVERSION_MESSAGES.tooManyFiles, 'TOO_MANY_FILES'));
    });

    bb.on('error', () => fatal(ApiError.badRequest(CONVERSION_MESSAGES.uploadAborted, 'UPLOAD_ABORTED')));

    bb.on('close', () => {
      void Promise.allSettled(writes).then(() => {
        if (settled) return;
        settled = true;
        resolve({ files, rejected, fields });
      });
    });

    req.on('aborted', () => fatal(ApiError.badRequest(CONVERSION_MESSAGES.uploadAborted, 'UPLOAD_ABORTED')));
    req.pipe(bb);
  });
}
