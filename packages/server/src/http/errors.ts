/**
 * One error shape for every API answer: { message, code, details?, fields? } with a pt-BR
 * message. Routes throw ApiError (or a ConverterError, mapped here); anything else is a 500
 * whose internals stay in the log.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isConverterError } from '@aabify/converter';
import type { Logger } from '../logger.js';
import { loggedUrl } from './requestLog.js';

export interface ApiErrorBody {
  message: string;
  code: string;
  details?: unknown;
  fields?: Record<string, string>;
  retryAfter?: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { details?: unknown; fields?: Record<string, string>; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return { message: this.message, code: this.code, ...this.extra };
  }

  static badRequest(message: string, code = 'BAD_REQUEST', details?: unknown) {
    return new ApiError(400, code, message, { details });
  }
  static validation(fields: Record<string, string>, message = 'Dados inválidos.') {
    return new ApiError(400, 'VALIDATION_ERROR', message, { fields });
  }
  static unauthorized(message = 'Não autenticado. Faça login novamente.', code = 'UNAUTHORIZED') {
    return new ApiError(401, code, message);
  }
  static forbidden(message = 'Acesso negado.', code = 'FORBIDDEN') {
    return new ApiError(403, code, message);
  }
  static notFound(message = 'Recurso não encontrado.', code = 'NOT_FOUND') {
    return new ApiError(404, code, message);
  }
  static conflict(message: string, code = 'CONFLICT') {
    return new ApiError(409, code, message);
  }
  static tooManyRequests(retryAfterSeconds: number, message = 'Muitas requisições. Tente novamente em instantes.', code = 'RATE_LIMIT') {
    return new ApiError(429, code, message, { retryAfter: retryAfterSeconds });
  }
}

/** JSON 404 for any /api path no route answered. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, 'ROUTE_NOT_FOUND', `Rota não encontrada: ${req.method} ${req.baseUrl}${req.path}`));
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let apiError: ApiError;
    if (err instanceof ApiError) {
      apiError = err;
    } else if (isConverterError(err)) {
      apiError = new ApiError(422, err.code, err.message, { details: err.detail });
    } else if (isBodyParserError(err)) {
      apiError = err.type === 'entity.too.large'
        ? new ApiError(413, 'PAYLOAD_TOO_LARGE', 'O corpo da requisição é grande demais.')
        : new ApiError(400, 'INVALID_JSON', 'O corpo da requisição não é um JSON válido.');
    } else {
      logger.error({ err, method: req.method, url: loggedUrl(req) }, 'unhandled error');
      apiError = new ApiError(500, 'INTERNAL_ERROR', 'Erro interno do servidor.');
    }
    if (apiError.status === 429 && apiError.extra.retryAfter !== undefined) {
      res.setHeader('Retry-After', String(apiError.extra.retryAfter));
    }
    res.status(apiError.status).json(apiError.toBody());
  };
}

function isBodyParserError(err: unknown): err is { type: string; status: number } {
  return typeof err === 'object' && err !== null && 'type' in err && typeof (err as { type: unknown }).type === 'string' && 'status' in err;
}
