/**
 * The BundleConfig's uncompressed globs as one matcher, on the engine's linear-time globs
 * (glob/pathGlob.ts): globs made only of plain characters (a converted bundle lists every entry
 * its APK stored, thousands of them) are looked up in a set; the rest run as automata drawing
 * from one step budget, so a hostile bundle's globs cannot hold the worker.
 */
import { ConverterError } from '../errors.js';
import { MatchBudget, PathGlob } from '../glob/pathGlob.js';
import { GlobSyntax, parse } from '../glob/syntax.js';

export class PathMatchers {
  private readonly literals = new Set<string>();
  private readonly globs: PathGlob[] = [];
  private readonly budget = new MatchBudget();

  constructor(globs: readonly string[]) {
    for (const g of globs) {
      try {
        const tokens = parse(g);
        if (tokens.every((t) => t.kind === 'char')) this.literals.add(String.fromCodePoint(...tokens.map((t) => (t.kind === 'char' ? t.cp : 0))));
        else this.globs.push(new PathGlob(g));
      } catch (e) {
        if (!(e instanceof GlobSyntax)) throw e;
        throw new ConverterError('INVALID_AAB', `BundleConfig.pb: glob "${g.slice(0, 100)}" inválido: ${e.problem.motivo}`);
      }
    }
  }

  matches(path: string): boolean {
    return this.literals.has(path) || this.globs.some((g) => g.matches(path, this.budget));
  }
}
