/**
 * The one HTTP client of the dashboard: JSON over fetch under /api, the bearer token of the
 * session, the server's error shape { message, code, fields?, retryAfter? } raised as
 * ApiRequestError, a toast for every failure unless the caller handles it (quiet), 401 ending
 * the session, and 403 REAUTH_REQUIRED (a sensitive change after 10 minutes without the
 * password) answered by asking for the password and trying the call once more.
 */
import { GENERIC_ERROR, type RequestFailure } from '../lib/errors';

export const API_BASE = '/api';

export class ApiRequestError extends Error implements RequestFailure {
  readonly status: number;
  readonly code?: string;
  readonly fields?: Record<string, string>;
  readonly retryAfter?: number;
  readonly details?: unknown;
  /** The server's own message (undefined when it sent none). */
  readonly serverMessage?: string;

  constructor(failure: RequestFailure) {
    super(failure.message || GENERIC_ERROR);
    this.name = 'ApiRequestError';
    this.status = failure.status;
    this.code = failure.code;
    this.fields = failure.fields;
    this.retryAfter = failure.retryAfter;
    this.details = failure.details;
    this.serverMessage = failure.message;
  }
}

export function isApiRequestError(e: unknown): e is ApiRequestError {
  return e instanceof ApiRequestError;
}

interface ApiHooks {
  getToken(): string | null;
  /** A request that carried a token got 401: the session is over. */
  onUnauthorized(): void;
  /** Shows a failed call to the user (a toast). */
  onError(title: string | undefined, message: string): void;
  /** A sensitive call needs the password again: resolves true once the session proved it, false if the user gave up. */
  onReauthRequired?(): Promise<boolean>;
  /** The session may only enrol in two-factor sign-in (an administrator where it is required). */
  onTwoFactorSetupRequired?(): void;
  /** New Termos de Uso or Política de Privacidade: the customer accepts them before going on. */
  onLegalAcceptanceRequired?(): void;
}

let hooks: ApiHooks = {
  getToken: () => null,
  onUnauthorized: () => undefined,
  onError: () => undefined,
};

export function configureApi(next: ApiHooks): void {
  hooks = next;
}

export function currentToken(): string | null {
  return hooks.getToken();
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** The caller shows the error itself; no toast. */
  quiet?: boolean;
  signal?: AbortSignal;
  /** A non-JSON body (FormData). */
  raw?: BodyInit;
  /** A 403 REAUTH_REQUIRED is the caller's (the re-authentication call itself). */
  noReauth?: boolean;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const q = qs.toString();
  return `${API_BASE}${path}${q ? `?${q}` : ''}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the server's error body into a failure; tolerant of non-JSON answers. */
export function failureFrom(status: number, body: unknown, retryAfterHeader?: string | null): RequestFailure {
  const f: RequestFailure = { status };
  if (isRecord(body)) {
    if (typeof body.message === 'string') f.message = body.message;
    else if (typeof body.error === 'string') f.message = body.error;
    if (typeof body.code === 'string') f.code = body.code;
    if (isRecord(body.fields)) {
      f.fields = Object.fromEntries(Object.entries(body.fields).filter((e): e is [string, string] => typeof e[1] === 'string'));
    }
    const retry = body.retryAfter ?? body.reset;
    if (typeof retry === 'number') f.retryAfter = retry;
    if (body.details !== undefined) f.details = body.details;
  }
  if (f.retryAfter === undefined && retryAfterHeader && Number.isFinite(Number(retryAfterHeader))) f.retryAfter = Number(retryAfterHeader);
  return f;
}

function report(error: ApiRequestError, quiet: boolean | undefined, hadToken: boolean): void {
  if (error.status === 401 && hadToken) hooks.onUnauthorized();
  if (error.status === 403 && error.code === 'TWO_FACTOR_SETUP_REQUIRED') hooks.onTwoFactorSetupRequired?.();
  if (error.status === 403 && error.code === 'LEGAL_ACCEPTANCE_REQUIRED') {
    // The acceptance screen says it; a toast would repeat it for every refused call.
    hooks.onLegalAcceptanceRequired?.();
    return;
  }
  if (quiet) return;
  if (error.status === 0) hooks.onError('Erro de Conexão', error.message);
  else hooks.onError(undefined, error.serverMessage || GENERIC_ERROR);
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const token = hooks.getToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined = options.raw;
  if (body === undefined && options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), { method, headers, body, signal: options.signal });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    const err = new ApiRequestError({ status: 0, message: 'Erro de conexão' });
    report(err, options.quiet, false);
    throw err;
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) {
    const err = new ApiRequestError(failureFrom(res.status, parsed, res.headers.get('retry-after')));
    if (err.status === 403 && err.code === 'REAUTH_REQUIRED' && !options.noReauth && hooks.onReauthRequired && (await hooks.onReauthRequired())) {
      return apiRequest<T>(method, path, { ...options, noReauth: true });
    }
    report(err, options.quiet, Boolean(token));
    throw err;
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};

/**
 * A multipart upload with progress (fetch has no upload progress): resolves with the JSON
 * answer, rejects with ApiRequestError. Never toasts: the conversion page words the error.
 */
export function apiUpload<T>(path: string, form: FormData, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const token = hooks.getToken();
    xhr.open('POST', apiUrl(path));
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onerror = () => reject(new ApiRequestError({ status: 0, message: 'Erro de conexão' }));
    xhr.onabort = () => reject(new DOMException('Envio cancelado', 'AbortError'));
    xhr.onload = () => {
      let parsed: unknown = undefined;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
      else {
        const err = new ApiRequestError(failureFrom(xhr.status, parsed, xhr.getResponseHeader('retry-after')));
        if (err.status === 401 && token) hooks.onUnauthorized();
        reject(err);
      }
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
