/**
 * Every way a remote command can fail, as one error type with a code, a pt-BR message and the
 * exit code a pipeline sees. The mapping from HTTP status (and the few client-side cases) to
 * exit code is written here and nowhere else.
 *
 *   0 ok · 1 conversion failed · 2 usage error · 3 authentication · 4 no credits or plan ·
 *   5 rate limited · 6 network or server error
 */
import { CONVERTER_ERRORS } from '@aabify/converter/errors';
import { API_TOKEN_DEFAULT_SCOPES, isApiTokenScope } from '@aabify/shared/accountSecurity';
import { isRecord } from '@aabify/shared/json';
import { sanitize } from '../safeText.js';
import { EXIT_AUTH, EXIT_FAILED, EXIT_NETWORK, EXIT_OK, EXIT_PAYMENT, EXIT_RATE_LIMITED, EXIT_USAGE, playExitCode, type ExitCode } from '../exitCodes.js';

export { EXIT_AUTH, EXIT_FAILED, EXIT_NETWORK, EXIT_OK, EXIT_PAYMENT, EXIT_RATE_LIMITED, EXIT_USAGE, type ExitCode };

/** The server's error answer: `{ message, code, details?, fields?, retryAfter? }`. */
export interface ServerErrorBody {
  message: string;
  code: string;
  details?: unknown;
  fields?: Record<string, string>;
  retryAfter?: number;
}

export interface CliErrorExtra {
  /** HTTP status of the answer, when the error came from the server. */
  status?: number;
  details?: unknown;
  fields?: Record<string, string>;
  retryAfter?: number;
  /** Internal detail for bug reports (never shown as the message). */
  detail?: string;
  /** Fields for the top level of the `--json` failure document (e.g. conversionId, status). */
  doc?: Record<string, unknown>;
}

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode,
    readonly extra: CliErrorExtra = {},
  ) {
    super(message);
    this.name = 'CliError';
  }

  /** The `error` object of a `--json` failure document. */
  toJson(): Record<string, unknown> {
    const { status, details, fields, retryAfter, detail } = this.extra;
    return {
      code: this.code,
      message: this.message,
      ...(status !== undefined ? { status } : {}),
      ...(fields ? { fields } : {}),
      ...(details !== undefined ? { details } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      ...(detail ? { detail } : {}),
    };
  }
}

/**
 * Codes saying the file itself cannot be converted (the engine's codes, and the server's own
 * checks of the upload): a failed conversion (exit 1), whatever the HTTP status.
 */
const FILE_REFUSED_CODES: ReadonlySet<string> = new Set([
  // INVALID_OPTIONS is the caller's request (a bad --options value, --sign without a keystore), not the file: exit 2.
  ...Object.keys(CONVERTER_ERRORS).filter((code) => code !== 'INVALID_OPTIONS'),
  'EMPTY_FILE',
  'INVALID_FILE_TYPE',
  'FILE_TOO_LARGE',
]);

/** The one table from an error answer (HTTP status, error code) to exit code. */
export function exitCodeFor(status: number, code?: string): ExitCode {
  if (code !== undefined && FILE_REFUSED_CODES.has(code)) return EXIT_FAILED;
  const play = code !== undefined ? playExitCode(code) : undefined;
  if (play !== undefined) return play;
  if (status === 401 || status === 403) return EXIT_AUTH;
  if (status === 402) return EXIT_PAYMENT;
  if (status === 429) return EXIT_RATE_LIMITED;
  // The request was wrong (bad flag value, unknown id, invalid options): the caller's mistake.
  if (status === 400 || status === 404 || status === 405) return EXIT_USAGE;
  // The server understood but refused the file or the state (not an APK, too large, not ready).
  if (status === 409 || status === 410 || status === 413 || status === 415 || status === 422) return EXIT_FAILED;
  return EXIT_NETWORK;
}

/** What the client says when the server sent no usable message (the dashboard's wording). */
function defaultMessage(status: number): string {
  switch (status) {
    case 400: return 'Dados inválidos.';
    case 401: return 'Não autorizado. Faça login novamente com aabify login.';
    case 402: return 'Pagamento necessário: sua conta não tem créditos ou plano ativo.';
    case 403: return 'Acesso negado.';
    case 404: return 'Não encontrado.';
    case 413: return 'O arquivo excede o limite de tamanho do servidor.';
    case 429: return 'Limite de requisições excedido.';
    default: return status >= 500 ? 'Erro interno do servidor.' : `HTTP ${status}`;
  }
}

/** The server's error body when the answer has that shape; its texts folded onto one line each, inert (safeText.ts). */
export function parseServerError(body: unknown): Partial<ServerErrorBody> {
  if (!isRecord(body)) return {};
  const out: Partial<ServerErrorBody> = {};
  if (typeof body.message === 'string') out.message = sanitize(body.message, false);
  else if (typeof body.error === 'string') out.message = sanitize(body.error, false);
  if (typeof body.code === 'string') out.code = sanitize(body.code, false);
  if (body.details !== undefined) out.details = body.details;
  if (isRecord(body.fields)) {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body.fields)) if (typeof v === 'string') fields[sanitize(k, false)] = sanitize(v, false);
    out.fields = fields;
  }
  const retry = typeof body.retryAfter === 'number' ? body.retryAfter : typeof body.reset === 'number' ? body.reset : undefined;
  if (retry !== undefined && Number.isFinite(retry)) out.retryAfter = retry;
  return out;
}

/**
 * What the CLI adds to a refusal it can help with: a token without the scope a command needs
 * is replaced by logging in again with it.
 */
function cliHint(code: string | undefined, details: unknown): string {
  if (code !== 'TOKEN_SCOPE_MISSING' || !isRecord(details) || !Array.isArray(details.requiredScopes)) return '';
  const required = details.requiredScopes.filter(isApiTokenScope);
  if (required.length === 0) return '';
  const scopes = [...new Set([...API_TOKEN_DEFAULT_SCOPES, required[0]!])];
  return ` Na CLI: aabify login --scopes ${scopes.join(',')}`;
}

/** A non-2xx answer as a CliError. */
export function errorFromResponse(status: number, body: unknown, retryAfterHeader?: number): CliError {
  const parsed = parseServerError(body);
  const retryAfter = parsed.retryAfter ?? retryAfterHeader;
  const message = (parsed.message ?? defaultMessage(status)) + cliHint(parsed.code, parsed.details);
  return new CliError(parsed.code ?? `HTTP_${status}`, message, exitCodeFor(status, parsed.code), {
    status,
    ...(parsed.details !== undefined ? { details: parsed.details } : {}),
    ...(parsed.fields ? { fields: parsed.fields } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
}

/** No answer at all (refused, reset, DNS, TLS, timeout). */
export function networkError(baseUrl: string, cause: unknown): CliError {
  const detail = cause instanceof Error ? `${causeCode(cause) ?? cause.name}: ${cause.message}` : String(cause);
  return new CliError('NETWORK_ERROR', `Erro de conexão com o servidor ${baseUrl}.`, EXIT_NETWORK, { detail });
}

function causeCode(e: Error): string | undefined {
  const withCode = e as Error & { code?: unknown; cause?: unknown };
  if (typeof withCode.code === 'string') return withCode.code;
  if (withCode.cause instanceof Error) return causeCode(withCode.cause);
  return undefined;
}

export function usageError(message: string, code = 'USAGE_ERROR'): CliError {
  return new CliError(code, message, EXIT_USAGE);
}

/** A thrown value as a CliError (anything unexpected is an internal failure, exit 1). */
export function toCliError(e: unknown): CliError {
  if (e instanceof CliError) return e;
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  return new CliError('INTERNAL', 'Erro interno do aabify.', EXIT_FAILED, { detail });
}
