/** What every store offers, and the key rules every store enforces. */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface LocalCopy {
  path: string;
  /** Removes the copy when it was made for the caller (remote storage); a no-op on disk. */
  release(): Promise<void>;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Streams `source` into `key`; on any error nothing is left under `key` and the source's own error is the rejection. Resolves with the byte count. */
  write(key: string, source: Readable): Promise<number>;
  /** Moves a finished local file (e.g. the engine's output) into `key`; the local file is gone afterwards. */
  putFile(key: string, localPath: string): Promise<void>;
  /** A stream of the object, or of one byte range of it. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Size in bytes, or undefined when the object does not exist. */
  size(key: string): Promise<number | undefined>;
  /** Removes the object; absent objects are fine. */
  delete(key: string): Promise<void>;
  /** Removes every object under a folder (`prefix` ends with '/'), e.g. all files of a conversion. */
  deletePrefix(prefix: string): Promise<void>;
  /** A local file with the object's bytes, for code that needs a path (the engine); release() it when done. */
  localCopy(key: string): Promise<LocalCopy>;
  /** A fresh scratch path on local disk (for the engine's output before putFile). */
  scratchPath(name: string): Promise<string>;
  /**
   * A short-lived URL that serves the object itself (S3_PRESIGNED_DOWNLOADS), with the given
   * Content-Disposition; undefined when downloads stream through the server.
   */
  downloadUrl(key: string, opts: { contentDisposition: string }): Promise<string | undefined>;
  /** Resolves when the store can be used (start, /api/ready); rejects with a StorageUnavailableError naming the problem. */
  check(): Promise<void>;
}

/** The store cannot be used: its message is one line for the operator (no secrets in it). */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

export const storageKeys = {
  apk: (conversionId: string) => `conversions/${conversionId}/input.apk`,
  aab: (conversionId: string) => `conversions/${conversionId}/output.aab`,
  /** The APK an AAB → APK conversion made. */
  apkOutput: (conversionId: string) => `conversions/${conversionId}/output.apk`,
  /** The device set (`.apks`) an AAB → APK conversion made for a device profile. */
  apksOutput: (conversionId: string) => `conversions/${conversionId}/output.apks`,
  /** The universal APK of the conversion's AAB ("Testar no celular"). */
  testApk: (conversionId: string) => `conversions/${conversionId}/test.apk`,
  /** The n-th other file of a set upload (more split APKs, OBBs). */
  part: (conversionId: string, n: number) => `conversions/${conversionId}/input-${n}`,
  /** Every file of the conversion lives under this folder (retention, deletion). */
  folder: (conversionId: string) => `conversions/${conversionId}/`,
};

/** Keys are relative, slash-separated, and never climb out of the store. */
export function assertSafeKey(key: string): void {
  if (!key || key.startsWith('/') || key.includes('\\') || key.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`unsafe storage key: ${key}`);
  }
}

/** A folder prefix: a safe key followed by '/'. */
export function assertSafePrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new Error(`unsafe storage prefix: ${prefix}`);
  assertSafeKey(prefix.slice(0, -1));
}

/** Scratch files of every back-end live in one directory (DATA_DIR/tmp), emptied at start. */
export class ScratchDir {
  constructor(readonly dir: string) {}

  async path(name: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    return join(this.dir, `${randomBytes(6).toString('hex')}-${name.replace(/[^\w.-]/g, '_')}`);
  }

  /** Leftovers of a process that died mid-conversion (the instance lock makes DATA_DIR ours). */
  async clear(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
