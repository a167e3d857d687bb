/**
 * Paginated lists: the page number of every list query (the same rule for the API and the
 * forms) and the `pagination` block of the answers.
 */
import { number } from 'yup';

/** Far past any real list; bounded so an offset never leaves Postgres's range (a 500). */
export const PAGE_MAX = 100_000;

const emptyToUndefined = <T>(v: T, original: unknown): T | undefined => (original === '' || original === null ? undefined : v);

export const pageNumber = (message = 'Página inválida') =>
  number().transform(emptyToUndefined).typeError(message).integer(message).min(1, message).max(PAGE_MAX, message).default(1);

/** The `pagination` block of a list answer. */
export interface Pagination {
  total: number;
  page: number;
  limit: number;
  /** At least 1, also for an empty list. */
  pages: number;
}

export function pagination(total: number, page: number, limit: number): Pagination {
  return { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}
