/**
 * The undici client of the aabify API: base URL, bearer token, the server's error shape turned
 * into CliError (errors.ts), and the retry policy pipelines need:
 * - 429: wait `retryAfter` (body or Retry-After header) and try again, as long as each wait is
 *   at most AABIFY_MAX_RETRY_WAIT seconds (default 60) and the attempts are few; else exit 5;
 * - no answer or 502/503/504 on a GET: two more tries with a short backoff; else exit 6.
 *
 *   const api = new ApiClient({ baseUrl, token });
 *   const me = await api.json('GET', '/auth/me');
 */
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { CLI_VERSION } from '../version.js';
import { CliError, EXIT_NETWORK, EXIT_RATE_LIMITED, errorFromResponse, networkError } from './errors.js';

export interface ApiClientOptions {
  baseUrl: string;
  token?: string;
  /** Told about each wait before a retry (pt-BR line for stderr). */
  onNotice?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

export type Query = Record<string, string | number | undefined>;

export interface CallOptions {
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Overrides the client's token for this call; null sends none. */
  token?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface UploadFile {
  path: string;
  size: number;
  /** File name sent to the server. */
  name: string;
  contentType: string;
}

const RATE_LIMIT_ATTEMPTS = 3;
const NETWORK_RETRIES = 2;
const RETRYABLE_STATUS = new Set([502, 503, 504]);

/** undici, loaded on the first call: commands that never reach the API (convert --local) skip its ~0.1 s load. */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = (): Promise<typeof import('undici')> => (undici ??= import('undici'));

/** Streams (SSE, downloads) may stay quiet for long: they get their own timeouts. */
let streamingAgent: Dispatcher | undefined;
async function getStreamingAgent(): Promise<Dispatcher> {
  const { Agent } = await loadUndici();
  return (streamingAgent ??= new Agent({ bodyTimeout: 0, headersTimeout: 60_000 }));
}

export class ApiClient {
  readonly baseUrl: string;
  readonly token?: string;
  private readonly onNotice: (message: string) => void;
  private readonly maxRetryWaitSeconds: number;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl;
    this.token = options.token;
    this.onNotice = options.onNotice ?? (() => {});
    const env = options.env ?? process.env;
    const bound = Number(env.AABIFY_MAX_RETRY_WAIT ?? '60');
    this.maxRetryWaitSeconds = Number.isFinite(bound) && bound >= 0 ? bound : 60;
  }

  url(path: string, query?: Query): string {
    const url = new URL(`${this.baseUrl}/api${path.startsWith('/') ? path : `/${path}`}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    return url.toString();
  }

  private headers(options: CallOptions, extra: Record<string, string> = {}): Record<string, string> {
    const token = options.token === null ? undefined : (options.token ?? this.token);
    return {
      'user-agent': `aabify-cli/${CLI_VERSION} node/${process.versions.node}`,
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extra,
      ...options.headers,
    };
  }

  /** A JSON call; resolves to the parsed body (undefined for 204), rejects with CliError. */
  async json(method: string, path: string, options: CallOptions = {}): Promise<unknown> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const res = await this.send(method, path, options, () => ({
      headers: this.headers(options, payload === undefined ? {} : { 'content-type': 'application/json' }),
      body: payload,
    }));
    return readJson(res);
  }

  /**
   * Multipart upload of one file, streamed from disk (never held in memory), with other fields
   * before it. `onProgress` gets the bytes of the file handed to the socket so far.
   */
  /** Streams `files` (one or several, all under `field`) after the text `fields`; `onProgress` counts file bytes sent. */
  async upload(path: string, field: string, files: UploadFile | readonly UploadFile[], fields: Record<string, string>, onProgress: (sent: number) => void, options: CallOptions = {}): Promise<unknown> {
    const list = Array.isArray(files) ? (files as readonly UploadFile[]) : [files as UploadFile];
    const res = await this.send('POST', path, options, () => {
      const boundary = `----aabify${randomBytes(12).toString('hex')}`;
      let head = '';
      for (const [name, value] of Object.entries(fields)) {
        head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      }
      const fileHead = (file: UploadFile, first: boolean): Buffer =>
        Buffer.from(`${first ? '' : '\r\n'}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; ${dispositionFilename(file.name)}\r\nContent-Type: ${file.contentType}\r\n\r\n`, 'utf8');
      const heads = list.map((f, i) => fileHead(f, i === 0));
      const headBytes = Buffer.from(head, 'utf8');
      const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
      async function* parts(): AsyncGenerator<Buffer> {
        yield headBytes;
        let sent = 0;
        onProgress(0);
        for (const [i, file] of list.entries()) {
          yield heads[i];
          for await (const chunk of createReadStream(file.path, { highWaterMark: 256 * 1024 })) {
            const buf = chunk as Buffer;
            sent += buf.length;
            onProgress(sent);
            yield buf;
          }
        }
        yield tailBytes;
      }
      const length = headBytes.length + heads.reduce((n, h) => n + h.length, 0) + list.reduce((n, f) => n + f.size, 0) + tailBytes.length;
      return {
        headers: this.headers(options, {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        }),
        body: Readable.from(parts()),
      };
    }, { idempotent: false });
    return readJson(res);
  }

  /**
   * A streaming GET (download, server-sent events): the answer's status and headers are the
   * caller's to judge except for errors the retry policy handles; the body is left unread.
   */
  async stream(path: string, options: CallOptions & { accept?: string; okStatuses?: number[] } = {}): Promise<Dispatcher.ResponseData> {
    const ok = new Set(options.okStatuses ?? [200]);
    const streamingAgent = await getStreamingAgent();
    return this.send('GET', path, options, () => ({
      headers: this.headers(options, options.accept ? { accept: options.accept } : {}),
      body: undefined,
    }), { dispatcher: streamingAgent, okStatuses: ok });
  }

  private async send(
    method: string,
    path: string,
    options: CallOptions,
    build: () => { headers: Record<string, string>; body: string | Readable | undefined },
    how: { idempotent?: boolean; dispatcher?: Dispatcher; okStatuses?: Set<number> } = {},
  ): Promise<Dispatcher.ResponseData> {
    const url = this.url(path, options.query);
    const idempotent = how.idempotent ?? (method === 'GET' || method === 'HEAD');
    let rateLimited = 0;
    let networkTries = 0;
    const { request } = await loadUndici();
    for (;;) {
      const { headers, body } = build();
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          signal: options.signal,
          ...(how.dispatcher ? { dispatcher: how.dispatcher } : {}),
        });
      } catch (e) {
        if (options.signal?.aborted) throw e;
        if (idempotent && networkTries < NETWORK_RETRIES) {
          networkTries += 1;
          await sleep(500 * networkTries);
          continue;
        }
        throw networkError(this.baseUrl, e);
      }
      const status = res.statusCode;
      if ((status >= 200 && status < 300 && !how.okStatuses) || how.okStatuses?.has(status)) return res;
      const errorBody = await readBody(res);
      const retryHeader = parseRetryAfter(res.headers['retry-after']);
      const error = errorFromResponse(status, errorBody, retryHeader);
      if (status === 429) {
        const wait = error.extra.retryAfter ?? 1;
        rateLimited += 1;
        if (rateLimited < RATE_LIMIT_ATTEMPTS && wait <= this.maxRetryWaitSeconds) {
          this.onNotice(`Limite de requisições excedido; nova tentativa em ${Math.ceil(wait)} s.`);
          await sleep(Math.max(0, wait) * 1000, undefined, options.signal ? { signal: options.signal } : undefined);
          continue;
        }
        throw new CliError(error.code, rateLimitMessage(error.message, wait), EXIT_RATE_LIMITED, error.extra);
      }
      if (idempotent && RETRYABLE_STATUS.has(status) && networkTries < NETWORK_RETRIES) {
        networkTries += 1;
        await sleep(500 * networkTries);
        continue;
      }
      throw error;
    }
  }
}

function rateLimitMessage(serverMessage: string, waitSeconds: number): string {
  return `${serverMessage} Rate limit atingido. Tente novamente em ${formatWait(waitSeconds)}.`;
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

/** `filename="app.apk"`, plus the RFC 5987 form when the name is not plain ASCII. */
function dispositionFilename(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return ascii === name ? `filename="${ascii}"` : `filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Retry-After as seconds (delta or HTTP date). */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v.trim());
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** Largest JSON or error answer read: the API's answers are a few kB; more is a server gone wrong. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

async function readBody(res: Dispatcher.ResponseData): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > MAX_BODY_BYTES) {
        res.body.destroy();
        throw new CliError('RESPONSE_TOO_LARGE', 'A resposta do servidor passou de 4 MiB e foi recusada.', EXIT_NETWORK, { status: res.statusCode });
      }
      chunks.push(buf);
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    return undefined;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readJson(res: Dispatcher.ResponseData): Promise<unknown> {
  if (res.statusCode === 204) {
    await res.body.dump();
    return undefined;
  }
  return readBody(res);
}
