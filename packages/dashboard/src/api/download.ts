/**
 * Downloads. A converted AAB (docs/conversions.md "Files and downloads"): a one-use token, then the
 * file streamed (from the server, or from the object store it redirects to), progress from
 * content-length, saved under the name the server gave. Any other file (the "Meus dados" export,
 * a receipt, the admin's CSV exports): fetched with the session by downloadSignedIn.
 */
import type { DownloadTokenResponse } from '@aabify/shared';
import { ApiRequestError, api, apiUrl, currentToken, failureFrom, type RequestOptions } from './client';

export const DOWNLOAD_TEXTS = {
  preparing: 'Preparando download...',
  started: 'Download iniciado!',
  done: (file: string) => `${file} baixado com sucesso!`,
  failed: (message: string) => `Erro no download: ${message}`,
  noReader: 'Não foi possível criar leitor de stream',
  http: (status: number, statusText: string) => `HTTP ${status}: ${statusText}`,
} as const;

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/**
 * The name an answer gives its file: X-Filename (percent-encoded), else Content-Disposition's
 * `filename*` (RFC 5987, UTF-8) or `filename`, else `fallback`.
 */
export function attachmentName(headers: Headers, fallback: string): string {
  const decoded = (text: string | undefined): string | undefined => {
    if (!text) return undefined;
    try {
      return decodeURIComponent(text);
    } catch {
      return undefined;
    }
  };
  const disposition = headers.get('content-disposition') ?? '';
  return (
    decoded(headers.get('x-filename') ?? undefined) ??
    decoded(/filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1]) ??
    /filename="([^"]+)"|filename=([^";]+)/i.exec(disposition)?.slice(1).find(Boolean) ??
    fallback
  );
}

/** A refused download as the API's coded error (its JSON body when it sent one, else the status). */
export async function refusalOf(res: Response): Promise<ApiRequestError> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the status says it
  }
  return new ApiRequestError(failureFrom(res.status, body, res.headers.get('retry-after')));
}

export interface SavedFile {
  /** The name it was saved under. */
  name: string;
  /** The answer's headers (e.g. the audit export's truncation flag). */
  headers: Headers;
}

/**
 * The one way to save a file the signed-in session may read (bearer header): the account's data
 * export, a receipt, the admin's CSV exports. Saved under the name the server gives; a refusal
 * rejects with the API's coded error (ApiRequestError), as every other call does.
 */
export async function downloadSignedIn(path: string, opts: { fallbackName: string; query?: RequestOptions['query'] }): Promise<SavedFile> {
  const token = currentToken();
  const res = await fetch(apiUrl(path, opts.query), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw await refusalOf(res);
  const name = attachmentName(res.headers, opts.fallbackName);
  saveBlob(await res.blob(), name);
  return { name, headers: res.headers };
}

export interface DownloadProgress {
  received: number;
  /** 0 when the server sent no content-length. */
  total: number;
}

/** Fetches the token, then streams the file; resolves with the saved name. */
export async function downloadConversion(
  conversionId: string,
  hooks: { onStarted(): void; onProgress(p: DownloadProgress): void },
  signal?: AbortSignal,
): Promise<string> {
  const { downloadToken, filename } = await api.post<DownloadTokenResponse>(
    `/download/generate-download-token/${encodeURIComponent(conversionId)}`,
    undefined,
    { quiet: true, signal },
  );
  // The download token alone opens the file: no bearer header, so when the server redirects to
  // the object store's presigned URL (S3_PRESIGNED_DOWNLOADS) nothing but that URL's own
  // signature reaches the store.
  const res = await fetch(apiUrl(`/download/file/${encodeURIComponent(downloadToken)}`), { signal });
  if (!res.ok) throw new Error(DOWNLOAD_TEXTS.http(res.status, res.statusText));
  const reader = res.body?.getReader();
  if (!reader) throw new Error(DOWNLOAD_TEXTS.noReader);
  hooks.onStarted();
  const total = Number(res.headers.get('content-length') ?? 0) || 0;
  const chunks: Uint8Array[] = [];
  let received = 0;
  hooks.onProgress({ received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    hooks.onProgress({ received, total });
  }
  const name = filename || `${conversionId}.aab`;
  saveBlob(new Blob(chunks as BlobPart[], { type: 'application/octet-stream' }), name);
  return name;
}
