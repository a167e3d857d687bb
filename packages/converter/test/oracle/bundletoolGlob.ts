/**
 * bundletool's own PathMatcher as an oracle: a tiny Java program, run from source with the
 * bundletool jar on the class path, answers for each glob whether it compiles and which of the
 * given paths it matches.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Oracles } from '../helpers/oracles.js';

const PROBE = `
import com.android.tools.build.bundletool.model.utils.PathMatcher;
import java.io.*;
import java.util.Base64;
public class GlobProbe {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    Base64.Decoder d = Base64.getDecoder();
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      String[] parts = line.split("\\t", -1);
      PathMatcher m;
      try { m = PathMatcher.createFromGlob(new String(d.decode(parts[0]), "UTF-8")); }
      catch (RuntimeException e) { out.append("E\\n"); continue; }
      for (int i = 1; i < parts.length; i++) out.append(m.matches(new String(d.decode(parts[i]), "UTF-8")) ? '1' : '0');
      out.append('\\n');
    }
    System.out.print(out);
  }
}
`;

export interface GlobCase {
  glob: string;
  paths: string[];
}

/** Per case: 'E' when bundletool refuses the glob, else one '1' or '0' per path. */
export function bundletoolGlobAnswers(o: Pick<Oracles, 'java' | 'bundletoolJar'>, dir: string, cases: readonly GlobCase[]): string[] {
  const source = join(dir, 'GlobProbe.java');
  writeFileSync(source, PROBE);
  const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
  const input = cases.map((c) => [c.glob, ...c.paths].map(b64).join('\t')).join('\n') + '\n';
  const run = spawnSync(o.java, ['-cp', o.bundletoolJar, source], { input, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`GlobProbe failed: ${run.stderr}`);
  return run.stdout.split('\n').slice(0, cases.length);
}
