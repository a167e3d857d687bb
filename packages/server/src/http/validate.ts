/**
 * Request validation with the shared yup schemas: a 400 VALIDATION_ERROR whose `fields`
 * maps each field to its first pt-BR message, and whose message is the first of them.
 *
 *   router.post('/', validate(registerSchema), async (req) => { const body = inputOf(req, registerSchema); });
 */
import type { Request, RequestHandler } from 'express';
import { ValidationError, type Schema } from 'yup';
import { ApiError } from './errors.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The validated (cast and stripped) input of validate(); read it with inputOf(). */
      input?: unknown;
    }
  }
}

const INVALID_VALUE = 'Valor inválido';

export function fieldErrors(err: ValidationError): Record<string, string> {
  const fields: Record<string, string> = {};
  const errors = err.inner.length ? err.inner : [err];
  for (const e of errors) {
    const path = e.path || '_';
    if (fields[path] !== undefined) continue;
    fields[path] = e.type === 'typeError' ? INVALID_VALUE : (e.errors[0] ?? INVALID_VALUE);
  }
  return fields;
}

export async function parseInput<T>(schema: Schema<T>, value: unknown): Promise<T> {
  try {
    return await schema.validate(value ?? {}, { abortEarly: false, stripUnknown: true });
  } catch (err) {
    if (err instanceof ValidationError) {
      const fields = fieldErrors(err);
      throw ApiError.validation(fields, Object.values(fields)[0]);
    }
    throw err;
  }
}

export function validate<T>(schema: Schema<T>, source: 'body' | 'query' | 'params' = 'body'): RequestHandler {
  return async (req, _res, next) => {
    req.input = await parseInput(schema, source === 'body' ? req.body : source === 'query' ? req.query : req.params);
    next();
  };
}

/** The input validate(schema) left on the request, typed by the same schema. */
export function inputOf<T>(req: Request, _schema: Schema<T>): T {
  if (req.input === undefined) throw new Error('inputOf() without validate() before it');
  return req.input as T;
}
