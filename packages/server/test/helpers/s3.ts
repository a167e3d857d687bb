/**
 * A real S3 API server on loopback for the tests: s3rver (the S3 REST API over HTTP, path-style,
 * SigV4-signed requests from the official SDK, multipart uploads, ranges, presigned URLs), its
 * objects in a temporary directory.
 *
 * s3rver 3.7 (its last release) answers AbortMultipartUpload with 405, so an aborted upload's
 * parts would stay; this helper adds that one documented operation (DELETE /{bucket}/{key}?uploadId,
 * 204, or 404 NoSuchUpload) on s3rver's own upload directories, so tests can prove that an
 * aborted upload leaves nothing. It does not check SigV4 signatures, only the access key id.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { loadConfig, type S3Config } from '../../src/config.js';

/** s3rver's only account. */
export const S3RVER_KEY = 'S3RVER';

type KoaContext = { method: string; path: string; query: Record<string, unknown>; status: number; body: unknown };
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment of a server storing in this bucket (STORAGE=s3 …). */
  env(extra?: Record<string, string>): Record<string, string>;
  /** The S3Config those variables give. */
  config(extra?: Record<string, string>): S3Config;
  /** Multipart uploads started and neither completed nor aborted. */
  pendingUploads(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts s3rver on a free loopback port with one empty bucket. */
export async function startTestS3(bucket = 'aabify-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'aabify-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const uploadsDir = (b: string) => join(directory, b, '._S3rver_uploads');

  const abortMultipartUpload: KoaMiddleware = async (ctx, next) => {
    const match = /^\/([^/]+)\/.+$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== 'DELETE' || !match || typeof uploadId !== 'string') return next();
    const dir = join(uploadsDir(match[1]!), uploadId);
    const known = /^[0-9a-f]+$/.test(uploadId) && (await readdir(uploadsDir(match[1]!)).catch((): string[] => [])).includes(uploadId);
    if (!known) {
      ctx.status = 404;
      ctx.body = { Error: { Code: 'NoSuchUpload', Message: 'The specified upload does not exist.', UploadId: uploadId } };
      return;
    }
    await rm(dir, { recursive: true, force: true });
    ctx.status = 204;
  };
  // Just before s3rver's router (its last middleware), after its XML and path-style handling.
  const stack = (server as unknown as { middleware: KoaMiddleware[] }).middleware;
  stack.splice(stack.length - 1, 0, abortMultipartUpload);

  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const env = (extra: Record<string, string> = {}) => ({
    STORAGE: 's3',
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: S3RVER_KEY,
    S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    ...extra,
  });
  return {
    endpoint,
    bucket,
    env,
    config: (extra) => loadConfig(env(extra)).s3!,
    pendingUploads: async () => (await readdir(uploadsDir(bucket)).catch((): string[] => [])).length,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
