/**
 * Where uploaded APKs and produced AABs live. One interface, so the local disk (the default,
 * under DATA_DIR/files) and an S3-compatible store (STORAGE=s3, later) are interchangeable:
 * routes stream in and out through it, and the engine gets a local file via localCopy().
 */
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { LocalStorage } from './local.js';

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
  /** Streams `source` into `key`; on any error nothing is left under `key`. Resolves with the byte count. */
  write(key: string, source: Readable): Promise<number>;
  /** Moves a finished local file (e.g. the engine's output) into `key`. */
  putFile(key: string, localPath: string): Promise<void>;
  /** A stream of the object, or of one byte range of it. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Size in bytes, or undefined when the object does not exist. */
  size(key: string): Promise<number | undefined>;
  /** Removes the object; absent objects are fine. */
  delete(key: string): Promise<void>;
  /** A local file with the object's bytes, for code that needs a path (the engine). */
  localCopy(key: string): Promise<LocalCopy>;
  /** A fresh scratch path on local disk (for the engine's output before putFile). */
  scratchPath(name: string): Promise<string>;
}

export const storageKeys = {
  apk: (conversionId: string) => `conversions/${conversionId}/input.apk`,
  aab: (conversionId: string) => `conversions/${conversionId}/output.aab`,
  /** The n-th other file of a set upload (more split APKs, OBBs). */
  part: (conversionId: string, n: number) => `conversions/${conversionId}/input-${n}`,
};

/** Keys are relative, slash-separated, and never climb out of the store. */
export function assertSafeKey(key: string): void {
  if (!key || key.startsWith('/') || key.includes('\\') || key.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`unsafe storage key: ${key}`);
  }
}

export function createStorage(config: Config): Storage {
  if (config.storage === 's3') {
    // The interface is ready for it; the client is not part of this release.
    throw new Error('STORAGE=s3 ainda não é suportado nesta versão; use STORAGE=local.');
  }
  return new LocalStorage(config.storageDir ?? join(config.dataDir, 'files'), join(config.dataDir, 'tmp'));
}
