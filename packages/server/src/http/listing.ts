/** How list routes search: the text matched literally. (Pages: `pagination` in @aabify/shared.) */

/** A search text as an (i)LIKE pattern matching it anywhere: its own %, _ and \ are literal. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
