/**
 * A tiny JSON client for API tests: paths are relative to /api, the token goes in as a
 * bearer token, and every answer is { status, body, headers } (body parsed when JSON).
 *
 *   const res = await api(server).post<AuthResponse>('/auth/login', { email, password });
 *   expect(res.status).to.equal(200);
 */
import { recordSecretsIn } from './secretLog.js';

type BodyInit = NonNullable<RequestInit['body']>;

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Default body type: an object whose fields a test reads after checking them. */
export type JsonBody = Record<string, unknown>;

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A raw body (string, Buffer, FormData…) instead of JSON. */
  raw?: BodyInit;
}

export interface ApiClient {
  request<T = JsonBody>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = JsonBody>(path: string, token?: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  delete<T = JsonBody>(path: string, token?: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = JsonBody>(path: string, body?: unknown, token?: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = JsonBody>(path: string, body?: unknown, token?: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = JsonBody>(path: string, body?: unknown, token?: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** An answer as the contract test checks it against the OpenAPI document (helpers/apiContract.ts). */
export interface RecordedAnswer {
  method: string;
  /** Path without the query, e.g. /api/conversion/status/…; */
  path: string;
  status: number;
  contentType: string;
  body: unknown;
}

let recording: RecordedAnswer[] | undefined;

/**
 * With AABIFY_API_CONTRACT=1, every answer of the whole run is kept too, and the root hook
 * (test/setup.ts) checks them all against the OpenAPI document at the end:
 *   AABIFY_API_CONTRACT=1 npx mocha --config ../../.mocharc.cjs --require ./test/setup.ts test/auth.test.ts
 */
export const suiteAnswers: RecordedAnswer[] | undefined = process.env.AABIFY_API_CONTRACT === '1' ? [] : undefined;

/** From now on every answer of api() is kept in the returned list, until stopRecording(). */
export function startRecording(): RecordedAnswer[] {
  recording = [];
  return recording;
}

export function stopRecording(): void {
  recording = undefined;
}

export function api(server: { url: string }): ApiClient {
  const request = async <T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const url = server.url + (path.startsWith('/api/') ? path : `/api${path}`);
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: BodyInit | undefined = options.raw;
    if (payload === undefined && body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    const isJson = contentType.includes('application/json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    const answer = { method, path: new URL(url).pathname, status: res.status, contentType, body: parsed };
    recording?.push(answer);
    recordSecretsIn(parsed, `${method} ${answer.path}`);
    suiteAnswers?.push(answer);
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    request,
    get: (path, token, options) => request('GET', path, undefined, { ...options, token }),
    delete: (path, token, options) => request('DELETE', path, undefined, { ...options, token }),
    post: (path, body, token, options) => request('POST', path, body, { ...options, token }),
    put: (path, body, token, options) => request('PUT', path, body, { ...options, token }),
    patch: (path, body, token, options) => request('PATCH', path, body, { ...options, token }),
  };
}
