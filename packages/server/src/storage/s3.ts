/**
 * Storage on an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Backblaze B2) through
 * the official AWS SDK v3. Uploads stream in as multipart uploads with a bounded part size and
 * queue (never whole in memory) and are aborted on any error; reads stream out, ranges included;
 * the engine gets a scratch copy under DATA_DIR/tmp that release() removes.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pipeline as pipelineCallback } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import type { Logger } from '../logger.js';
import { assertSafeKey, assertSafePrefix, StorageUnavailableError, type ByteRange, type LocalCopy, type ScratchDir, type Storage } from './store.js';

/** S3's minimum part size is 5 MiB; at most (queue + 1) parts of one upload are in memory. */
export const S3_PART_SIZE = 8 * 1024 * 1024;
export const S3_UPLOAD_QUEUE = 2;
/** Lifetime of a presigned download URL: long enough to start the download, short enough not to be shared. */
export const PRESIGNED_TTL_SECONDS = 300;
/** How long the start-up / readiness check waits for the store. */
const CHECK_TIMEOUT_MS = 10_000;
/** Objects deleted at once by deletePrefix (single DeleteObject calls: every store accepts them). */
const DELETE_CONCURRENCY = 8;

// The SDK warns on Node < 22 about its releases after January 2027; the version locked here runs on
// Node 20 (docs/foundation.md), so the warning would only be noise on stderr at every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/**
 * The AWS SDK's parts this store uses, loaded when an S3 store is opened: a server on local disk
 * never loads them (~20 MB of a process's memory, kept for its life once loaded).
 */
async function loadS3Sdk() {
  const [client, storage, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage'), import('@aws-sdk/s3-request-presigner')]);
  const { S3Client, S3ServiceException, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command } = client;
  return { S3Client, S3ServiceException, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
}
type S3Sdk = Awaited<ReturnType<typeof loadS3Sdk>>;

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  /** The store for these settings, the SDK loaded. */
  static async open(config: S3Config, scratch: ScratchDir, logger?: Logger): Promise<S3Storage> {
    return new S3Storage(config, scratch, await loadS3Sdk(), logger);
  }

  private constructor(
    readonly config: S3Config,
    readonly scratch: ScratchDir,
    private readonly sdk: S3Sdk,
    private readonly logger?: Logger,
  ) {
    this.client = new sdk.S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Checksums only where S3 requires them: several S3-compatible stores reject the SDK's
      // default CRC32 trailers on streamed bodies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 5000 },
    });
  }

  /** The object's key in the bucket: S3_PREFIX + our key. */
  objectKey(key: string): string {
    assertSafeKey(key);
    return this.config.prefix + key;
  }

  async write(key: string, source: Readable): Promise<number> {
    const Key = this.objectKey(key);
    let bytes = 0;
    let sourceError: unknown;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    // A failing source (size cut-off, bad signature, client gone) destroys the counter with its
    // error, which ends the upload's reading with it.
    pipelineCallback(source, counter, (err) => {
      if (err) sourceError ??= err;
    });
    source.once('error', (err) => (sourceError ??= err));
    const upload = new this.sdk.Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key, Body: counter, ContentType: 'application/octet-stream' },
      partSize: S3_PART_SIZE,
      queueSize: S3_UPLOAD_QUEUE,
      // On error lib-storage sends AbortMultipartUpload: no parts are left behind.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
      return bytes;
    } catch (err) {
      const failure = sourceError;
      counter.destroy();
      if (failure && err !== failure) {
        // The upload failed while aborting: its parts may remain until the bucket's lifecycle rule removes them.
        this.logger?.warn({ key: Key, err: { name: (err as Error).name, message: (err as Error).message } }, 'S3 multipart upload not aborted');
      }
      // The source's error says why (413, not a zip…); the store's only when the store failed.
      throw failure ?? err;
    }
  }

  async putFile(key: string, localPath: string): Promise<void> {
    await this.write(key, createReadStream(localPath));
    await rm(localPath, { force: true });
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const out = await this.client.send(
      new this.sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
    );
    if (!(out.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a body stream`);
    return out.Body;
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      return head.ContentLength;
    } catch (err) {
      if (this.isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafePrefix(prefix);
    const Prefix = this.config.prefix + prefix;
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new this.sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix, ContinuationToken }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
      for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
        await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map((Key) => this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key }))));
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const path = await this.scratch.path(basename(key));
    try {
      await pipeline(await this.read(key), createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return { path, release: () => rm(path, { force: true }) };
  }

  scratchPath(name: string): Promise<string> {
    return this.scratch.path(name);
  }

  async downloadUrl(key: string, opts: { contentDisposition: string }): Promise<string | undefined> {
    const Key = this.objectKey(key);
    if (!this.config.presignedDownloads) return undefined;
    const command = new this.sdk.GetObjectCommand({
      Bucket: this.config.bucket,
      Key,
      ResponseContentDisposition: opts.contentDisposition,
      ResponseContentType: 'application/octet-stream',
      ResponseCacheControl: 'private, no-store',
    });
    return this.sdk.getSignedUrl(this.client, command, { expiresIn: PRESIGNED_TTL_SECONDS });
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.config.bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    } catch (err) {
      throw new StorageUnavailableError(`Armazenamento S3 inacessível: ${this.describeFailure(err)}`, { cause: err });
    }
  }

  private statusOf(err: unknown): number | undefined {
    return err instanceof this.sdk.S3ServiceException ? err.$metadata.httpStatusCode : undefined;
  }

  private isNotFound(err: unknown): boolean {
    return this.statusOf(err) === 404 || (err instanceof Error && (err.name === 'NotFound' || err.name === 'NoSuchKey'));
  }

  /** One line for the operator: what failed and which variable to look at (never a secret). */
  private describeFailure(err: unknown): string {
    const { bucket, endpoint, region } = this.config;
    const where = endpoint ? `S3_ENDPOINT ${endpoint}` : `AWS S3 na região ${region}`;
    const status = this.statusOf(err);
    const e = err as Error & { code?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return `${where} não respondeu em ${CHECK_TIMEOUT_MS / 1000} s`;
    if (code && NETWORK_CODES.has(code)) return `não foi possível conectar a ${where} (${code})`;
    if (status === 404) return `o bucket "${bucket}" (S3_BUCKET) não existe em ${where}`;
    if (status === 401 || status === 403) {
      return `acesso negado ao bucket "${bucket}" — verifique S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY e as permissões do bucket`;
    }
    if (status === 301 || status === 307 || status === 400) {
      return `o bucket "${bucket}" não responde em ${where} (HTTP ${status}) — verifique S3_REGION, S3_ENDPOINT e S3_FORCE_PATH_STYLE`;
    }
    if (e.name === 'CredentialsProviderError') return 'nenhuma credencial encontrada — defina S3_ACCESS_KEY_ID e S3_SECRET_ACCESS_KEY';
    const detail = `${e.name ?? 'Error'}${status ? ` HTTP ${status}` : ''}: ${e.message ?? String(err)}`.split('\n')[0];
    return `${where}, bucket "${bucket}": ${detail}`;
  }
}
