/** How list routes page and search: one page shape, and search text matched literally. */

export function pagination(total: number, page: number, limit: number) {
  return { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

/** A search text as an (i)LIKE pattern matching it anywhere: its own %, _ and \ are literal. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
