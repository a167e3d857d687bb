/**
 * Syntax check of a bundletool PathMatcher glob: `*`, `**`, `?`, `[class]` (no `/` inside),
 * `{a,b}` (not nested), backslash escapes. Returns why it does not compile, or undefined.
 */
export function globSyntaxError(glob: string): string | undefined {
  if (glob.includes('\n')) return 'contains a newline';
  if (glob.includes('\\\\')) return 'contains a double backslash';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      if (i + 1 >= glob.length) return 'ends with an escape character';
      i++;
    } else if (c === '[') {
      let j = i + 1;
      let closed = false;
      for (; j < glob.length; j++) {
        if (glob[j] === '\\') j++;
        else if (glob[j] === '/') return 'has a "/" inside a character class';
        else if (glob[j] === ']' && j > i + 1) {
          closed = true;
          break;
        }
      }
      if (!closed) return 'has an unclosed character class';
      i = j;
    } else if (c === '{') {
      if (inBraces) return 'has nested groups';
      inBraces = true;
    } else if (c === '}') {
      if (!inBraces) return 'has an unmatched "}"';
      inBraces = false;
    }
  }
  return inBraces ? 'has an unclosed group' : undefined;
}
