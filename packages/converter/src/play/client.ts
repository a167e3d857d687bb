/**
 * The Android Publisher API v3 over its documented REST protocol (undici + node:crypto; no
 * Google client library): an OAuth 2.0 token by the JWT-bearer grant (RFC 7523), edits.insert,
 * edits.bundles.upload by the resumable upload protocol (the bundle streamed in chunks, never
 * held whole), edits.bundles.list and edits.apks.list, edits.tracks.update, edits.commit and
 * edits.delete.
 */
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { PlayReleaseStatus, ReleaseNote } from '@aabify/shared/play';
import { ANDROID_PUBLISHER_SCOPE, apiBaseFor, tokenUrlFor, type PlayEndpoints } from './endpoints.js';
import { PlayError, playErrorFrom, playNetworkError, type PlayStage } from './errors.js';
import { signAssertion } from './jwt.js';
import type { ServiceAccountKey } from './serviceAccount.js';

/** The resumable protocol takes chunks in multiples of 256 KiB (all but the last). */
export const UPLOAD_CHUNK_UNIT = 256 * 1024;
export const DEFAULT_UPLOAD_CHUNK_BYTES = 32 * UPLOAD_CHUNK_UNIT;
/** Times one chunk is sent again after a 5xx or a dropped connection (asking the session where it stands first). */
const CHUNK_RETRIES = 3;

/** What edits.bundles.upload answers. */
export interface PlayBundle {
  versionCode: number;
  sha1: string;
  sha256: string;
}

/** The bundle's bytes: its size, and a fresh stream of them (a storage object, a file). */
export interface BundleSource {
  size: number;
  open(): Promise<Readable> | Readable;
}

/** One release of a track (Play's TrackRelease). */
export interface TrackRelease {
  name?: string;
  versionCodes: string[];
  status: PlayReleaseStatus;
  userFraction?: number;
  releaseNotes?: ReleaseNote[];
}

export interface PlayClientOptions {
  signal?: AbortSignal;
  /** Per-request timeout of headers and body (default 2 minutes, as Google advises for uploads). */
  timeoutMs?: number;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const enc = encodeURIComponent;

async function readAnswerBody(res: Dispatcher.ResponseData): Promise<unknown> {
  const text = await res.body.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Exactly `size`-byte chunks of a stream (the last one shorter). */
async function* chunksOf(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const piece of stream) {
    let buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
    while (buf.length > 0) {
      const take = Math.min(size - held, buf.length);
      parts.push(buf.subarray(0, take));
      held += take;
      buf = buf.subarray(take);
      if (held === size) {
        yield Buffer.concat(parts, held);
        parts = [];
        held = 0;
      }
    }
  }
  if (held > 0) yield Buffer.concat(parts, held);
}

/** `Range: bytes=0-N` of a 308: how many bytes the session holds. */
function receivedOf(range: string | string[] | undefined): number {
  const v = Array.isArray(range) ? range[0] : range;
  const m = v ? /bytes=0-(\d+)/.exec(v) : null;
  return m ? Number(m[1]) + 1 : 0;
}

export class PlayClient {
  private token?: { value: string; expiresAt: number };
  private readonly base: string;

  constructor(
    readonly key: ServiceAccountKey,
    private readonly endpoints: PlayEndpoints = {},
    private readonly opts: PlayClientOptions = {},
  ) {
    this.base = apiBaseFor(endpoints);
  }

  private async send(stage: PlayStage, method: Dispatcher.HttpMethod, url: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method,
        headers: init.headers,
        body: init.body,
        signal: this.opts.signal,
        headersTimeout: this.opts.timeoutMs ?? 120_000,
        bodyTimeout: this.opts.timeoutMs ?? 120_000,
      });
    } catch (e) {
      if (this.opts.signal?.aborted) throw e;
      throw playNetworkError(stage, e);
    }
    let body: unknown;
    try {
      body = await readAnswerBody(res);
    } catch (e) {
      throw playNetworkError(stage, e);
    }
    return { status: res.statusCode, headers: res.headers, body };
  }

  /** An access token for the androidpublisher scope (kept until a minute before it expires). */
  async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;
    const tokenUrl = tokenUrlFor(this.key, this.endpoints);
    const form = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signAssertion(this.key, tokenUrl, ANDROID_PUBLISHER_SCOPE),
    });
    const res = await this.send('token', 'POST', tokenUrl, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const b = res.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (res.status !== 200 || typeof b?.access_token !== 'string') throw playErrorFrom('token', res.status === 200 ? 502 : res.status, res.body);
    const ttl = typeof b.expires_in === 'number' ? b.expires_in : 3600;
    this.token = { value: b.access_token, expiresAt: Date.now() + ttl * 1000 };
    return b.access_token;
  }

  private async api(stage: PlayStage, method: Dispatcher.HttpMethod, path: string, json?: unknown, ok: number[] = [200]): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}` };
    if (json !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    const res = await this.send(stage, method, `${this.base}${path}`, { headers, body: json === undefined ? undefined : JSON.stringify(json) });
    if (!ok.includes(res.status)) throw playErrorFrom(stage, res.status, res.body);
    return res;
  }

  private appPath(packageName: string): string {
    return `/androidpublisher/v3/applications/${enc(packageName)}`;
  }

  /** edits.insert: an edit open for 1 hour (or until committed or deleted). */
  async insertEdit(packageName: string): Promise<{ id: string; expiryTimeSeconds?: string }> {
    const res = await this.api('edit', 'POST', `${this.appPath(packageName)}/edits`, {});
    const b = res.body as { id?: unknown; expiryTimeSeconds?: unknown } | undefined;
    if (typeof b?.id !== 'string') throw new PlayError('PLAY_REJECTED', { stage: 'edit', detail: 'edits.insert answered without an id' });
    return { id: b.id, ...(typeof b.expiryTimeSeconds === 'string' ? { expiryTimeSeconds: b.expiryTimeSeconds } : {}) };
  }

  /** edits.delete (204). */
  async deleteEdit(packageName: string, editId: string): Promise<void> {
    await this.api('delete', 'DELETE', `${this.appPath(packageName)}/edits/${enc(editId)}`, undefined, [200, 204]);
  }

  /** edits.commit: the edit's changes go live (or to review). */
  async commitEdit(packageName: string, editId: string): Promise<Record<string, unknown>> {
    const res = await this.api('commit', 'POST', `${this.appPath(packageName)}/edits/${enc(editId)}:commit`);
    return (res.body as Record<string, unknown> | undefined) ?? {};
  }

  /**
   * Every versionCode the app has on Play: edits.bundles.list and edits.apks.list (bundles and
   * APKs ever uploaded; a versionCode once used is refused again, whatever track it went to).
   */
  async listVersionCodes(packageName: string, editId: string): Promise<number[]> {
    const codes: number[] = [];
    for (const [kind, field] of [['bundles', 'bundles'], ['apks', 'apks']] as const) {
      const res = await this.api('edit', 'GET', `${this.appPath(packageName)}/edits/${enc(editId)}/${kind}`);
      const list = (res.body as Record<string, unknown> | undefined)?.[field];
      if (!Array.isArray(list)) continue; // an app without any answers without the field
      for (const item of list) {
        const v = (item as { versionCode?: unknown } | null)?.versionCode;
        const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
        if (n !== undefined && Number.isSafeInteger(n)) codes.push(n);
      }
    }
    return codes;
  }

  /** edits.tracks.update: the track's releases become `[release]`. */
  async updateTrack(packageName: string, editId: string, track: string, release: TrackRelease): Promise<Record<string, unknown>> {
    const res = await this.api('track', 'PUT', `${this.appPath(packageName)}/edits/${enc(editId)}/tracks/${enc(track)}`, { track, releases: [release] });
    return (res.body as Record<string, unknown> | undefined) ?? {};
  }

  /**
   * edits.bundles.upload by the resumable protocol: a POST with X-Upload-Content-Type and
   * X-Upload-Content-Length opens a session (its URI in Location), then PUTs of
   * `chunkBytes` with Content-Range; 308 (Range: bytes=0-N) asks for the rest, 200/201 carries
   * the Bundle. After a 5xx or a dropped connection the session is asked where it stands
   * (`Content-Range: bytes * /size`) and the chunk is sent again from there.
   */
  async uploadBundle(
    packageName: string,
    editId: string,
    source: BundleSource,
    opts: { chunkBytes?: number; onProgress?: (bytes: number) => void } = {},
  ): Promise<PlayBundle> {
    const chunkBytes = opts.chunkBytes ?? DEFAULT_UPLOAD_CHUNK_BYTES;
    if (chunkBytes <= 0 || chunkBytes % UPLOAD_CHUNK_UNIT !== 0) throw new Error(`chunk size must be a multiple of ${UPLOAD_CHUNK_UNIT}`);
    const size = source.size;
    const init = await this.send('upload', 'POST', `${this.base}/upload${this.appPath(packageName)}/edits/${enc(editId)}/bundles?uploadType=resumable`, {
      headers: {
        authorization: `Bearer ${await this.accessToken()}`,
        'content-type': 'application/json; charset=utf-8',
        'x-upload-content-type': 'application/octet-stream',
        'x-upload-content-length': String(size),
      },
      body: '{}',
    });
    if (init.status !== 200) throw playErrorFrom('upload', init.status, init.body);
    const session = this.sessionUrl(init.headers.location);

    const put = async (headers: Record<string, string>, body?: Buffer): Promise<Answer> =>
      this.send('upload', 'PUT', session, { headers: { authorization: `Bearer ${await this.accessToken()}`, ...headers }, body });
    const askOffset = async (): Promise<number | PlayBundle> => {
      const res = await put({ 'content-range': `bytes */${size}`, 'content-length': '0' });
      if (res.status === 308) return receivedOf(res.headers.range);
      if (res.status === 200 || res.status === 201) return this.bundleOf(res.body);
      throw playErrorFrom('upload', res.status, res.body);
    };

    let offset = 0;
    let result: PlayBundle | undefined;
    const stream = await source.open();
    try {
      for await (const chunk of chunksOf(stream, chunkBytes)) {
        const start = offset;
        const end = start + chunk.length;
        if (end > size) throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: `bundle larger than its declared ${size} bytes` });
        let tries = 0;
        while (offset < end) {
          const from = offset - start;
          let res: Answer | undefined;
          try {
            res = await put({ 'content-range': `bytes ${offset}-${end - 1}/${size}`, 'content-length': String(chunk.length - from) }, chunk.subarray(from));
          } catch (e) {
            if (!(e instanceof PlayError) || e.code !== 'PLAY_UNAVAILABLE' || ++tries > CHUNK_RETRIES) throw e;
          }
          if (res && res.status === 308) {
            offset = receivedOf(res.headers.range);
            opts.onProgress?.(offset);
            if (offset < start) throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: `upload session went back to byte ${offset}` });
            continue;
          }
          if (res && (res.status === 200 || res.status === 201)) {
            if (end !== size) throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: `upload finished at byte ${end} of ${size}` });
            result = this.bundleOf(res.body);
            offset = end;
            opts.onProgress?.(offset);
            break;
          }
          if (res && res.status < 500) throw playErrorFrom('upload', res.status, res.body);
          // 5xx or no answer: where does the session stand?
          if (res && ++tries > CHUNK_RETRIES) throw playErrorFrom('upload', res.status, res.body);
          const at = await askOffset();
          if (typeof at !== 'number') {
            result = at;
            offset = size;
            break;
          }
          if (at < start) throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: `upload session went back to byte ${at}` });
          offset = at;
        }
      }
    } finally {
      stream.destroy();
    }
    if (!result) throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: `bundle ended at byte ${offset} of ${size}` });
    return result;
  }

  /** The session URI: on the API's own origin or on Google's (never anywhere else the answer names). */
  private sessionUrl(location: string | string[] | undefined): string {
    const value = Array.isArray(location) ? location[0] : location;
    if (!value) throw new PlayError('PLAY_UNAVAILABLE', { stage: 'upload', detail: 'resumable upload answered without a Location' });
    const url = new URL(value, this.base);
    const same = url.origin === new URL(this.base).origin;
    if (!same && !(url.protocol === 'https:' && url.hostname.endsWith('.googleapis.com'))) {
      throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: `upload session on an unexpected host ${url.host}` });
    }
    return url.toString();
  }

  private bundleOf(body: unknown): PlayBundle {
    const b = body as { versionCode?: unknown; sha1?: unknown; sha256?: unknown } | undefined;
    if (typeof b?.versionCode !== 'number') throw new PlayError('PLAY_REJECTED', { stage: 'upload', detail: 'bundles.upload answered without a versionCode' });
    return { versionCode: b.versionCode, sha1: typeof b.sha1 === 'string' ? b.sha1 : '', sha256: typeof b.sha256 === 'string' ? b.sha256 : '' };
  }
}
