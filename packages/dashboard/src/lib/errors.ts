/**
 * User-facing texts for failed calls.
 * The API client raises ApiRequestError; these map it to what a toast or a card says.
 */
import { PAYMENT_MESSAGES } from '@aabify/shared';
import { formatRetryAfter } from './format';

export const GENERIC_ERROR = 'An error occurred';

export interface RequestFailure {
  /** HTTP status; 0 when no response came back. */
  status: number;
  message?: string;
  code?: string;
  fields?: Record<string, string>;
  retryAfter?: number;
  details?: unknown;
}

/** The conversion client's mapping by HTTP status. */
export function conversionErrorMessage(f: RequestFailure): string {
  if (f.status === 0) return 'Erro de conexão';
  if (f.status === 429) return f.message || 'Limite de requisições excedido';
  if (f.status === 400) return f.message || 'Dados inválidos';
  if (f.status === 401) return 'Não autorizado';
  if (f.status === 402) return f.message || 'Pagamento necessário';
  if (f.status === 404) return 'Conversão não encontrada';
  if (f.status >= 500) return 'Erro interno do servidor';
  return f.message || GENERIC_ERROR;
}

export const UPLOAD_FAILED = 'Erro ao iniciar conversão';

/** What the page says when starting a conversion failed. */
export function uploadErrorMessage(f: RequestFailure): string {
  if (f.status === 429 || f.code === 'RATE_LIMIT') {
    const wait = f.retryAfter !== undefined ? formatRetryAfter(f.retryAfter) : 'alguns instantes';
    return `Rate limit atingido. Tente novamente em ${wait}.`;
  }
  if (f.status === 413) return f.message || 'O arquivo excede o limite de 100MB';
  if (f.status === 0 || f.status === 400 || f.status === 401 || f.status === 402 || f.status === 404 || f.status >= 500) return conversionErrorMessage(f);
  return f.message || UPLOAD_FAILED;
}

/** Errors of creating a payment (PIX, checkout, renewal). The server's 400 text already carries the prefix: it is added only when missing. */
export function pixCreateErrorMessage(f: RequestFailure): string {
  if (f.status === 400) {
    const text = f.message ?? '';
    return (text.startsWith(PAYMENT_MESSAGES.validationPrefix) ? text : `${PAYMENT_MESSAGES.validationPrefix}${text}`).trim();
  }
  if (f.status === 401) return PAYMENT_MESSAGES.sessionExpired;
  if (f.status === 404) return f.message && f.message !== 'Recurso não encontrado.' ? f.message : `${PAYMENT_MESSAGES.planNotFound}…`;
  // 503 says why in the buyer's words (PAYMENTS_UNAVAILABLE, PIX_KEY_MISSING); other 5xx stay generic.
  if (f.status === 503 && f.message) return f.message;
  if (f.status >= 500) return PAYMENT_MESSAGES.internal;
  return f.message || PAYMENT_MESSAGES.createFailed;
}

/** Maps a server answer's password-change error onto the form fields. */
export function passwordChangeFieldErrors(f: RequestFailure): Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>> {
  const out: Partial<Record<'currentPassword' | 'newPassword' | 'confirmPassword', string>> = {};
  for (const [k, v] of Object.entries(f.fields ?? {})) {
    if (k === 'currentPassword' || k === 'newPassword' || k === 'confirmPassword') out[k] = v;
  }
  const msg = f.message ?? '';
  if (msg.includes('Senha atual incorreta')) out.currentPassword ??= msg;
  else if (msg.toLowerCase().includes('nova senha')) out.newPassword ??= msg;
  return out;
}
