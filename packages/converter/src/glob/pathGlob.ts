/**
 * bundletool's path globs (its PathMatcher: `*`, `**`, `?`, `[...]`, `{a,b}`, backslash escapes),
 * matched in linear time. bundletool turns a glob into a java.util.regex pattern, and a
 * backtracking engine takes time exponential in the wildcards for some names (`**a**a**a**b`
 * against `aaaa…` ran for minutes). Here a glob becomes a small automaton (Thompson's
 * construction) that reads the path once, carrying the set of places the pattern can be at:
 * time proportional to the path's length times the pattern's, never more, and every match of a
 * conversion draws from one budget of steps (MatchBudget), so no choice of patterns and names
 * can hold a worker. docs/split-inputs.md "Path globs" describes the syntax.
 *
 * The meaning is bundletool's translation, to the character:
 * - `*` is `[^/]*` (within a segment), `**` is `.*` (across segments), `?` is `.` — one
 *   character, a `/` included. Java's `.` does not match a line terminator (\n, \r, U+0085,
 *   U+2028, U+2029), so neither do `?` and `**`;
 * - `[...]` is copied into a regex class: ranges (`a-z`), `[!…]` negates (and, as bundletool
 *   copies the `!` too, also excludes `!`), a leading `^` is a literal; `/` inside, `[]`, a
 *   missing `]` and a `]` or `}` with no opening are errors; a negated class can match `/`;
 * - `{a,b}` alternatives (never nested), `,` outside braces is a literal;
 * - `\x` is the character x. bundletool hands `\` + letter or digit to Java's regex engine
 *   (`\d`, `\w`, back-references…) and so does `&&` and `[` inside a class: those are refused
 *   here (`unsupported`) rather than matched differently.
 */
import { CONVERSION_LIMITS } from '@aabify/shared/conversions';
import { ConverterError } from '../errors.js';
import { GlobSyntax, SLASH, isLineTerminator, parse, type ClassRange, type Token } from './syntax.js';

export { globProblem, type GlobProblem } from './syntax.js';

/** Longest glob accepted from a user, in characters (the API's limit too). */
export const MAX_GLOB_LENGTH = CONVERSION_LIMITS.assetPackGlobMaxLength;

/**
 * Automaton steps (a state carried over a character) all the matches of one conversion may take:
 * real rules over real APKs take a few million (100,000 assets × 3 rules × 40 characters × a
 * few states); a few hundred million is about a second.
 */
export const MAX_GLOB_MATCH_STEPS = 300_000_000;

/**
 * Steps every match of one conversion draws from (MAX_GLOB_MATCH_STEPS by default): when they
 * run out, the conversion ends with a coded error instead of holding the worker.
 */
export class MatchBudget {
  constructor(private remaining: number = MAX_GLOB_MATCH_STEPS) {}

  spend(steps: number): void {
    this.remaining -= steps;
    if (this.remaining < 0) {
      throw new ConverterError(
        'INVALID_OPTIONS',
        'os padrões (globs) dos pacotes de assets exigem comparações demais com os nomes deste APK: use menos curingas (* e **) ou padrões mais curtos',
      );
    }
  }
}

// Automaton states: read one character (CONSUME), read any number of them (LOOP: `*`, `**`),
// branch without reading (SPLIT: a group), or the end (ACCEPT).
const CONSUME = 0;
const LOOP = 1;
const SPLIT = 2;
const ACCEPT = 3;
// What a reading state accepts.
const TEST_CHAR = 0;
const TEST_NOT_LINE_TERMINATOR = 1;
const TEST_NOT_SLASH = 2;
const TEST_CLASS = 3;

/** Sets of automaton states remembered with their transitions (a lazily built DFA), per glob. */
const MAX_CACHED_SETS = 1024;
const UNKNOWN = -1;
const DEAD = -2;

/** A set of automaton states the matcher can be in, with the sets each character leads to. */
interface CachedSet {
  states: Int32Array;
  accepting: boolean;
  /** Next set per ASCII character (UNKNOWN until computed, DEAD when no state survives). */
  ascii: Int32Array;
  other: Map<number, number>;
}

/**
 * A compiled glob: `matches(path)` reads the path once. The sets of states met are cached with
 * their transitions, so the usual path costs one table lookup per character; a transition not
 * yet seen costs one step per state of the set (the automaton's size at most), and the cache is
 * emptied when it grows past MAX_CACHED_SETS: the time stays linear in the path, the memory bounded.
 */
export class PathGlob {
  private readonly kind: number[] = [];
  private readonly next: number[] = [];
  private readonly testKind: number[] = [];
  private readonly testArg: number[] = [];
  private readonly classes: { negated: boolean; ranges: ClassRange[] }[] = [];
  private readonly branches: number[][] = [];
  private readonly start: number;
  /** The path itself, when the glob has no wildcard (an exact comparison). */
  private readonly literal: string | undefined;
  private readonly mark: Uint32Array;
  private readonly stack: Int32Array;
  private readonly scratch: Int32Array;
  private generation = 0;
  private sets: CachedSet[] = [];
  private setIndex = new Map<string, number>();

  constructor(readonly glob: string) {
    const tokens = parse(glob);
    this.literal = tokens.every((t) => t.kind === 'char') ? String.fromCodePoint(...tokens.map((t) => (t as { cp: number }).cp)) : undefined;
    this.start = this.sequence(tokens, this.state(ACCEPT, -1));
    const n = this.kind.length;
    this.mark = new Uint32Array(n);
    this.stack = new Int32Array(n + 1);
    this.scratch = new Int32Array(n);
  }

  private state(kind: number, next: number, test?: Exclude<Token, { kind: 'group' }>, branches: number[] = []): number {
    this.kind.push(kind);
    this.next.push(next);
    this.branches.push(branches);
    if (!test || test.kind === 'char') {
      this.testKind.push(TEST_CHAR);
      this.testArg.push(test ? test.cp : -1);
    } else if (test.kind === 'star') {
      this.testKind.push(TEST_NOT_SLASH);
      this.testArg.push(0);
    } else if (test.kind === 'class') {
      this.testKind.push(TEST_CLASS);
      this.testArg.push(this.classes.push({ negated: test.negated, ranges: test.ranges }) - 1);
    } else {
      this.testKind.push(TEST_NOT_LINE_TERMINATOR);
      this.testArg.push(0);
    }
    return this.kind.length - 1;
  }

  /** States for `tokens` ending in `next`, built back to front; returns the first. */
  private sequence(tokens: readonly Token[], next: number): number {
    for (let i = tokens.length - 1; i >= 0; i--) {
      const t = tokens[i];
      if (t.kind === 'group') next = this.state(SPLIT, -1, undefined, t.alternatives.map((alt) => this.sequence(alt, next)));
      else next = this.state(t.kind === 'star' || t.kind === 'anyStar' ? LOOP : CONSUME, next, t);
    }
    return next;
  }

  private accepts(s: number, cp: number): boolean {
    switch (this.testKind[s]) {
      case TEST_CHAR:
        return cp === this.testArg[s];
      case TEST_NOT_SLASH:
        return cp !== SLASH;
      case TEST_NOT_LINE_TERMINATOR:
        return !isLineTerminator(cp);
      default: {
        const c = this.classes[this.testArg[s]];
        let hit = false;
        for (const r of c.ranges) {
          if (cp >= r.from && cp <= r.to) {
            hit = true;
            break;
          }
        }
        return hit !== c.negated;
      }
    }
  }

  /** Adds `s` and every state reached from it without reading a character to `into`; returns the new count. */
  private add(s: number, into: Int32Array, count: number): number {
    const { stack, mark, kind, next, branches, generation } = this;
    let top = 0;
    stack[top++] = s;
    while (top > 0) {
      const t = stack[--top];
      if (mark[t] === generation) continue;
      mark[t] = generation;
      const k = kind[t];
      if (k === SPLIT) {
        for (const b of branches[t]) if (mark[b] !== generation) stack[top++] = b;
        continue;
      }
      into[count++] = t;
      if (k === LOOP && mark[next[t]] !== generation) stack[top++] = next[t];
    }
    return count;
  }

  private nextGeneration(): void {
    if (this.generation === 0xffffffff) {
      this.mark.fill(0);
      this.generation = 0;
    }
    this.generation++;
  }

  /** The cached set holding exactly `states[0..count)`, made if new (emptying a full cache first). */
  private setOf(states: Int32Array, count: number): number {
    const sorted = states.slice(0, count).sort();
    const key = sorted.join(',');
    const known = this.setIndex.get(key);
    if (known !== undefined) return known;
    if (this.sets.length >= MAX_CACHED_SETS) {
      this.sets = [];
      this.setIndex = new Map();
    }
    const accepting = sorted.some((s) => this.kind[s] === ACCEPT);
    this.sets.push({ states: sorted, accepting, ascii: new Int32Array(128).fill(UNKNOWN), other: new Map() });
    this.setIndex.set(key, this.sets.length - 1);
    return this.sets.length - 1;
  }

  /** The set `cp` leads to from set `from` (DEAD if none), computed once per pair while cached. */
  private transition(from: number, cp: number, budget: MatchBudget | undefined): number {
    const set = this.sets[from];
    const cached = cp < 128 ? set.ascii[cp] : (set.other.get(cp) ?? UNKNOWN);
    if (cached !== UNKNOWN) return cached;
    budget?.spend(set.states.length);
    this.nextGeneration();
    let count = 0;
    for (const s of set.states) {
      const k = this.kind[s];
      if (k === ACCEPT || !this.accepts(s, cp)) continue;
      count = this.add(k === LOOP ? s : this.next[s], this.scratch, count);
    }
    const sets = this.sets;
    const to = count === 0 ? DEAD : this.setOf(this.scratch, count);
    // When setOf emptied the cache, `set` is gone and `to` is an index into the new one.
    if (this.sets === sets) {
      if (cp < 128) set.ascii[cp] = to;
      else set.other.set(cp, to);
    }
    return to;
  }

  /** Whether the whole path matches, as bundletool's PathMatcher.matches. */
  matches(path: string, budget?: MatchBudget): boolean {
    if (this.literal !== undefined) return path === this.literal;
    budget?.spend(path.length);
    this.nextGeneration();
    let at = this.setOf(this.scratch, this.add(this.start, this.scratch, 0));
    for (let i = 0; i < path.length; i++) {
      let cp = path.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < path.length) {
        const low = path.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      at = this.transition(at, cp, budget);
      if (at === DEAD) return false;
    }
    return this.sets[at].accepting;
  }
}

/**
 * A user's glob compiled for matching, or INVALID_OPTIONS with the pt-BR reason: empty, longer
 * than MAX_GLOB_LENGTH characters (checked before anything is parsed), or not bundletool syntax.
 * `prefix` (a folder the glob is relative to) is put before it for matching.
 */
export function compilePathGlob(glob: string, options: { what?: string; prefix?: string } = {}): PathGlob {
  const what = options.what ?? 'padrão';
  if (glob.length === 0) throw new ConverterError('INVALID_OPTIONS', `${what} vazio`);
  if (glob.length > MAX_GLOB_LENGTH) {
    throw new ConverterError('INVALID_OPTIONS', `${what} longo demais: ${glob.length} caracteres (máximo ${MAX_GLOB_LENGTH})`);
  }
  try {
    return new PathGlob(`${options.prefix ?? ''}${glob}`);
  } catch (e) {
    if (!(e instanceof GlobSyntax)) throw e;
    const shown = glob.length > 80 ? `${glob.slice(0, 80)}…` : glob;
    const at = e.problem.at - (options.prefix ?? '').length;
    throw new ConverterError('INVALID_OPTIONS', `${what} inválido "${shown}": ${e.problem.motivo} (caractere ${at})`);
  }
}
