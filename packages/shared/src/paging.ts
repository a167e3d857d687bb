/** The page number of every paginated list query (the same rule for the API and the forms). */
import { number } from 'yup';

/** Far past any real list; bounded so an offset never leaves Postgres's range (a 500). */
export const PAGE_MAX = 100_000;

const emptyToUndefined = <T>(v: T, original: unknown): T | undefined => (original === '' || original === null ? undefined : v);

export const pageNumber = (message = 'Página inválida') =>
  number().transform(emptyToUndefined).typeError(message).integer(message).min(1, message).max(PAGE_MAX, message).default(1);
