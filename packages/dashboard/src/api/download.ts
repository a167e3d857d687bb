/**
 * Downloads. A converted AAB (docs/conversions.md "Files and downloads"): a one-use token, then the
 * file streamed (from the server, or from the object store it redirects to), progress from
 * content-length, saved under the name the server gave. A file of the account itself (the "Meus
 * dados" export): fetched with the session, saved under the name the server gave.
 */
import type { DownloadTokenResponse } from '@aabify/shared';
import { ApiRequestError, api, apiUrl, currentToken, failureFrom } from './client';


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

/** The name a download's answer gives (X-Filename, percent-encoded), else `fallback`. */
function answeredName(res: Response, fallback: string): string {
  const header = res.headers.get('x-filename');
  if (!header) return fallback;
  try {
    return decodeURIComponent(header);
  } catch {
    return fallback;
  }
}

/**
 * Saves a file the signed-in session may read (bearer header), under the name the server gives;
 * a refusal rejects with the API's coded error. Resolves with the saved name.
 */
export async function downloadSignedIn(path: string, fallbackName: string): Promise<string> {
  const token = currentToken();
  const res = await fetch(apiUrl(path), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the status says it
    }
    throw new ApiRequestError(failureFrom(res.status, body, res.headers.get('retry-after')));
  }
  const name = answeredName(res, fallbackName);
  saveBlob(await res.blob(), name);
  return name;
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
