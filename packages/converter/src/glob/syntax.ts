/**
 * bundletool's glob syntax (its PathMatcher), parsed into tokens with the meaning bundletool's
 * translation to a Java regular expression gives them (pathGlob.ts lists it); what does not
 * compile is a GlobProblem, in English for the bundle validator and in pt-BR for users.
 */

/** Why a glob does not compile: `reason` in English (bundle validation), `motivo` in pt-BR. */
export interface GlobProblem {
  reason: string;
  motivo: string;
  /** Position (1-based, in characters) where bundletool would report it. */
  at: number;
  /** bundletool would hand it to Java's regex engine, whose extras are not reproduced here. */
  unsupported: boolean;
}

export interface ClassRange {
  from: number;
  to: number;
}

export type Token =
  | { kind: 'char'; cp: number }
  | { kind: 'any' }
  | { kind: 'class'; negated: boolean; ranges: ClassRange[] }
  | { kind: 'star' }
  | { kind: 'anyStar' }
  | { kind: 'group'; alternatives: Token[][] };

export const SLASH = 0x2f;
const BACKSLASH = 0x5c;
export const isLineTerminator = (cp: number): boolean => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
const isAsciiAlnum = (cp: number): boolean => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

export class GlobSyntax extends Error {
  constructor(readonly problem: GlobProblem) {
    super(problem.reason);
  }
}

function fail(at: number, reason: string, motivo: string, unsupported = false): never {
  throw new GlobSyntax({ reason, motivo, at: at + 1, unsupported });
}

const show = (cp: number): string => String.fromCodePoint(cp);

/** The escaped character after a backslash at `i` (an error or a refusal for what Java would read as a regex escape). */
function escaped(cps: readonly number[], i: number): number {
  if (i + 1 >= cps.length) fail(i, 'ends with an escape character', 'termina com o caractere de escape \\');
  const c = cps[i + 1];
  if (isAsciiAlnum(c)) fail(i, `uses the escape "\\${show(c)}", a regular-expression construct`, `usa o escape "\\${show(c)}", que o bundletool lê como expressão regular (não suportado)`, true);
  return c;
}

/** A class's content from `i` (just after `[`) to its `]`: bundletool copies it into a Java class. */
function parseClass(cps: readonly number[], open: number): { token: Token; end: number } {
  let end = open + 1;
  while (end < cps.length && cps[end] !== 0x5d) {
    if (cps[end] === SLASH) fail(end, 'has a "/" inside a character class', 'tem "/" dentro de uma classe [...]');
    end++;
  }
  if (end >= cps.length) fail(open, 'has an unclosed character class', 'tem uma classe [... sem o "]"');
  if (end === open + 1) fail(open, 'has an empty character class', 'tem uma classe vazia []');
  const body = cps.slice(open + 1, end);
  const negated = body[0] === 0x21; // "!": Java's "^", and the "!" itself stays in the class
  const ranges: ClassRange[] = [];
  let i = 0;
  const item = (): number => {
    const c = body[i];
    if (c === 0x5b) fail(open + 1 + i, 'has a "[" inside a character class', 'tem "[" dentro de uma classe [...]');
    if (c === 0x26 && body[i + 1] === 0x26) fail(open + 1 + i, 'has "&&" inside a character class', 'tem "&&" dentro de uma classe [...] (interseção de expressão regular, não suportada)', true);
    if (c !== BACKSLASH) {
      i++;
      return c;
    }
    if (i + 1 >= body.length) fail(open, 'has an unclosed character class', 'tem uma classe [... sem o "]"');
    const e = escaped(body, i);
    i += 2;
    return e;
  };
  while (i < body.length) {
    const from = item();
    if (body[i] === 0x2d && i + 1 < body.length) {
      i++;
      const to = item();
      if (to < from) fail(open, `has an invalid range "${show(from)}-${show(to)}" in a character class`, `tem a faixa inválida "${show(from)}-${show(to)}" numa classe [...]`);
      ranges.push({ from, to });
    } else {
      ranges.push({ from, to: from });
    }
  }
  return { token: { kind: 'class', negated, ranges }, end };
}

export function parse(glob: string): Token[] {
  const cps = Array.from(glob, (c) => c.codePointAt(0)!);
  const top: Token[] = [];
  let group: { alternatives: Token[][]; at: number } | undefined;
  let out = top;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    switch (c) {
      case BACKSLASH:
        out.push({ kind: 'char', cp: escaped(cps, i) });
        i++;
        break;
      case 0x2a: // *
        if (cps[i + 1] === 0x2a) {
          out.push({ kind: 'anyStar' });
          i++;
        } else {
          out.push({ kind: 'star' });
        }
        break;
      case 0x3f: // ?
        out.push({ kind: 'any' });
        break;
      case 0x5b: {
        // [
        const { token, end } = parseClass(cps, i);
        out.push(token);
        i = end;
        break;
      }
      case 0x5d: // ]
        fail(i, 'has an unmatched "]"', 'tem um "]" sem o "[" correspondente');
        break;
      case 0x7b: // {
        if (group) fail(i, 'has nested groups', 'tem grupos {...} aninhados');
        group = { alternatives: [[]], at: i };
        out = group.alternatives[0];
        break;
      case 0x7d: // }
        if (!group) fail(i, 'has an unmatched "}"', 'tem um "}" sem o "{" correspondente');
        top.push({ kind: 'group', alternatives: group.alternatives });
        group = undefined;
        out = top;
        break;
      case 0x2c: // ,
        if (group) {
          out = [];
          group.alternatives.push(out);
        } else {
          out.push({ kind: 'char', cp: c });
        }
        break;
      default:
        out.push({ kind: 'char', cp: c });
    }
  }
  if (group) fail(group.at, 'has an unclosed group', 'tem um grupo { sem o "}"');
  return top;
}

/** Why `glob` is not a bundletool glob, or undefined when it is one. */
export function globProblem(glob: string): GlobProblem | undefined {
  try {
    parse(glob);
    return undefined;
  } catch (e) {
    if (e instanceof GlobSyntax) return e.problem;
    throw e;
  }
}
