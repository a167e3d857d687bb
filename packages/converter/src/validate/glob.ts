import { globProblem } from '../glob/pathGlob.js';

/**
 * Why bundletool's BundleConfigValidator refuses an uncompressed glob, or undefined: a newline
 * or a double backslash (forbidden outright), or a glob its PathMatcher does not compile.
 * Constructs bundletool hands to Java's regex engine (`\d`, `&&` in a class) are not reported:
 * bundletool accepts them, they are only not matched here (glob/pathGlob.ts).
 */
export function globSyntaxError(glob: string): string | undefined {
  if (glob.includes('\n')) return 'contains a newline';
  if (glob.includes('\\\\')) return 'contains a double backslash';
  const problem = globProblem(glob);
  return problem && !problem.unsupported ? problem.reason : undefined;
}
