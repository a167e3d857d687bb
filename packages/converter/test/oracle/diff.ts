/**
 * Line diffs for failure messages: the first place two dumps part ways, with a little context,
 * so a failing round trip says what differs rather than "expected false to be true".
 */

export interface FirstDifference {
  /** 0-based index of the first differing line (in both sides, since they agree before it). */
  index: number;
  /** Human-readable excerpt: context lines, then `- expected` / `+ actual` lines. */
  text: string;
}

/** Null when equal; otherwise where they first differ. */
export function firstDifference(
  expected: readonly string[],
  actual: readonly string[],
  options: { context?: number; show?: number; labels?: [string, string] } = {},
): FirstDifference | null {
  const context = options.context ?? 3;
  const show = options.show ?? 6;
  const [labelE, labelA] = options.labels ?? ['expected', 'actual'];
  const n = Math.min(expected.length, actual.length);
  let i = 0;
  while (i < n && expected[i] === actual[i]) i++;
  if (i === expected.length && i === actual.length) return null;

  const out: string[] = [`first difference at line ${i + 1} (- ${labelE}, + ${labelA}):`];
  for (let c = Math.max(0, i - context); c < i; c++) out.push(`    ${expected[c]}`);
  const e = expected.slice(i, i + show);
  const a = actual.slice(i, i + show);
  for (const l of e) out.push(`  - ${l}`);
  if (i >= expected.length) out.push(`  - <end of ${labelE}, ${expected.length} lines>`);
  for (const l of a) out.push(`  + ${l}`);
  if (i >= actual.length) out.push(`  + <end of ${labelA}, ${actual.length} lines>`);
  return { index: i, text: out.join('\n') };
}

/** Splits a tool's output into lines, without the trailing empty one. */
export function toLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
