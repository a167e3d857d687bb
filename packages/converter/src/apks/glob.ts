/**
 * bundletool's PathMatcher (the BundleConfig's uncompressed globs) as a matcher that cannot
 * backtrack: the glob is expanded over its `{a,b}` groups into token sequences and each is run
 * as a set of positions over the path (linear in path × pattern), so a hostile bundle's globs
 * cannot stall the engine the way `**a**a**a…` does a backtracking regular expression.
 * Semantics as bundletool's: `*` within a segment, `**` across segments, `?` any one character
 * (but a line break), `[...]` a set (`[!...]` negated), a backslash escapes the next character.
 */
import { ConverterError } from '../errors.js';

type Token =
  | { kind: 'char'; c: string }
  | { kind: 'any' }
  | { kind: 'set'; negated: boolean; ranges: [number, number][] }
  | { kind: 'star'; crossesSlash: boolean };

/** Most alternatives one glob may expand to, and most characters one glob may have. */
const MAX_ALTERNATIVES = 256;
const MAX_GLOB_LENGTH = 4096;
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

function fail(glob: string, why: string): never {
  throw new ConverterError('INVALID_AAB', `BundleConfig.pb: glob "${glob.slice(0, 100)}" inválido: ${why}`);
}

function parseSet(glob: string, start: number): { token: Token; end: number } {
  let i = start + 1;
  let negated = false;
  if (glob[i] === '!') {
    negated = true;
    i++;
  }
  const ranges: [number, number][] = [];
  const first = i;
  while (i < glob.length && (glob[i] !== ']' || i === first)) {
    let c = glob[i];
    if (c === '/') fail(glob, '"/" dentro de um conjunto');
    if (c === '\\' && i + 1 < glob.length) c = glob[++i];
    if (glob[i + 1] === '-' && i + 2 < glob.length && glob[i + 2] !== ']') {
      const hi = glob[i + 2];
      ranges.push([c.charCodeAt(0), hi.charCodeAt(0)]);
      i += 3;
      continue;
    }
    ranges.push([c.charCodeAt(0), c.charCodeAt(0)]);
    i++;
  }
  if (i >= glob.length) fail(glob, 'conjunto sem "]"');
  return { token: { kind: 'set', negated, ranges }, end: i };
}

/** The glob as alternatives of token sequences. */
function compile(glob: string): Token[][] {
  if (glob.length > MAX_GLOB_LENGTH) fail(glob, 'longo demais');
  let alternatives: Token[][] = [[]];
  let group: Token[][] | undefined;
  const push = (t: Token): void => {
    if (group) group[group.length - 1].push(t);
    else for (const a of alternatives) a.push(t);
  };
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      if (i + 1 >= glob.length) fail(glob, 'escape no fim');
      push({ kind: 'char', c: glob[++i] });
    } else if (c === '*') {
      const crossesSlash = glob[i + 1] === '*';
      if (crossesSlash) i++;
      push({ kind: 'star', crossesSlash });
    } else if (c === '?') push({ kind: 'any' });
    else if (c === '[') {
      const { token, end } = parseSet(glob, i);
      push(token);
      i = end;
    } else if (c === ']') fail(glob, '"]" sem "["');
    else if (c === '{') {
      if (group) fail(glob, 'grupos aninhados');
      group = [[]];
    } else if (c === '}') {
      if (!group) fail(glob, '"}" sem "{"');
      const options = group;
      group = undefined;
      if (alternatives.length * options.length > MAX_ALTERNATIVES) fail(glob, 'alternativas demais');
      alternatives = alternatives.flatMap((a) => options.map((o) => [...a, ...o]));
    } else if (c === ',' && group) group.push([]);
    else push({ kind: 'char', c });
  }
  if (group) fail(glob, 'grupo sem "}"');
  return alternatives;
}

function accepts(t: Token, c: string): boolean {
  switch (t.kind) {
    case 'char':
      return t.c === c;
    case 'any':
      return !LINE_BREAK.test(c);
    case 'set': {
      const code = c.charCodeAt(0);
      const inSet = t.ranges.some(([lo, hi]) => code >= lo && code <= hi);
      return inSet !== t.negated;
    }
    case 'star':
      return t.crossesSlash ? !LINE_BREAK.test(c) : c !== '/' && !LINE_BREAK.test(c);
  }
}

/** Whether the token sequence matches the whole path: a set of pattern positions advanced per character. */
function matchesSequence(tokens: readonly Token[], path: string): boolean {
  let states = new Uint8Array(tokens.length + 1);
  const close = (s: Uint8Array): void => {
    // A star may match nothing: reaching it reaches what follows it.
    for (let k = 0; k < tokens.length; k++) if (s[k] && tokens[k].kind === 'star') s[k + 1] = 1;
  };
  states[0] = 1;
  close(states);
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    const next = new Uint8Array(tokens.length + 1);
    let any = false;
    for (let k = 0; k < tokens.length; k++) {
      if (!states[k] || !accepts(tokens[k], c)) continue;
      if (tokens[k].kind === 'star') next[k] = 1;
      else next[k + 1] = 1;
      any = true;
    }
    if (!any) return false;
    close(next);
    states = next;
  }
  return states[tokens.length] === 1;
}

/**
 * Matches a path against any of several globs. Alternatives made only of plain characters (the
 * literal globs a converted bundle lists for every entry the APK stored) are looked up in a set;
 * the rest run as token sequences.
 */
export class PathMatchers {
  private readonly literals = new Set<string>();
  private readonly patterns: Token[][] = [];

  constructor(globs: readonly string[]) {
    for (const g of globs) {
      for (const a of compile(g)) {
        if (a.every((t) => t.kind === 'char')) this.literals.add(a.map((t) => (t as { c: string }).c).join(''));
        else this.patterns.push(a);
      }
    }
  }

  matches(path: string): boolean {
    return this.literals.has(path) || this.patterns.some((a) => matchesSequence(a, path));
  }
}
