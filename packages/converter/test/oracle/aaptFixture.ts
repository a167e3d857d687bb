/**
 * Small APK fixtures compiled from source XML by Debian's `aapt` (aapt1, linked against Debian's
 * framework-res.apk): an independent compiler, so a fixture says what a real build tool makes of
 * the source, not what our engine expects.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Oracles } from '../helpers/oracles.js';
import { run } from './tools.js';

export interface AaptFixture {
  /** AndroidManifest.xml source. */
  manifest: string;
  /** Paths under res/ (e.g. `values/strings.xml`) → source text. */
  res?: Record<string, string>;
  /** Paths under assets/ → bytes or text. */
  assets?: Record<string, string | Uint8Array>;
}

/** Compiles the fixture in `dir` and returns the APK's path (`dir/fixture.apk`). */
export async function buildAaptApk(o: Pick<Oracles, 'aapt' | 'frameworkRes'>, dir: string, fixture: AaptFixture): Promise<string> {
  const src = join(dir, 'src');
  mkdirSync(join(src, 'res'), { recursive: true });
  writeFileSync(join(src, 'AndroidManifest.xml'), fixture.manifest);
  const write = (path: string, content: string | Uint8Array): void => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  for (const [path, text] of Object.entries(fixture.res ?? {})) write(join(src, 'res', path), text);
  const args = ['package', '-f', '-M', join(src, 'AndroidManifest.xml'), '-S', join(src, 'res'), '-I', o.frameworkRes];
  if (fixture.assets) {
    for (const [path, content] of Object.entries(fixture.assets)) write(join(src, 'assets', path), content);
    args.push('-A', join(src, 'assets'));
  }
  const apk = join(dir, 'fixture.apk');
  await run(o.aapt, [...args, '-F', apk]);
  return apk;
}
