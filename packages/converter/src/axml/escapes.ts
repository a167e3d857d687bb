/**
 * How aapt2 reads the text of an uncompiled XML attribute when it writes binary XML: backslash
 * escapes resolved (\t, \n, \uXXXX, an escaped character as itself), spaces and quotes kept as
 * they are (its StringBuilder with preserve_spaces). An invalid \u sequence ends the string
 * where it starts, as aapt2's builder stops at its first error.
 */
export function resolveEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  const cps = Array.from(text);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= cps.length) break; // a trailing backslash is dropped
    const e = cps[++i];
    if (e === 't') out += '\t';
    else if (e === 'n') out += '\n';
    else if (e === 'u') {
      let code = 0;
      let n = 0;
      for (; n < 4 && i + 1 < cps.length; n++) {
        const h = cps[++i];
        const v = /^[0-9a-fA-F]$/.test(h) ? parseInt(h, 16) : -1;
        if (v < 0) return out;
        code = (code << 4) | v;
      }
      out += String.fromCodePoint(code);
    } else out += e;
  }
  return out;
}

/** Text node content as aapt2 writes it: whitespace-only text dropped, the rest trimmed with one space kept at each end that had whitespace. */
export function compactText(text: string): string | undefined {
  const trimmed = text.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
  if (trimmed === '') return undefined;
  const lead = /^[\t\n\v\f\r ]/.test(text) ? ' ' : '';
  const trail = /[\t\n\v\f\r ]$/.test(text) ? ' ' : '';
  return lead + trimmed + trail;
}
