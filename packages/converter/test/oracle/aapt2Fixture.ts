/**
 * Small APKs linked by Google's aapt2 (the oracle copy) from a manifest, against Debian's
 * framework-res.apk — real binary manifests, as a build makes them — with native libraries added
 * afterwards the way the Android Gradle plugin packs them (stored and 16 KB-aligned, or deflated).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Oracles } from '../helpers/oracles.js';
import { run } from './tools.js';
import { ZipArchive, ZipWriter } from './zip.js';

export interface Aapt2Fixture {
  /** AndroidManifest.xml source. */
  manifest: string;
  /** `lib/<abi>/<name>.so` (or any other path) → bytes; stored and 16 KB-aligned unless `deflate`. */
  files?: Record<string, Buffer>;
  deflate?: boolean;
}

/** Links the fixture in `dir` and returns the APK's path (`dir/<name>.apk`). */
export async function buildAapt2Apk(o: Pick<Oracles, 'aapt2' | 'frameworkRes'>, dir: string, name: string, fixture: Aapt2Fixture): Promise<string> {
  const src = join(dir, `${name}-src`);
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'AndroidManifest.xml'), fixture.manifest);
  const linked = join(src, 'linked.apk');
  await run(o.aapt2, ['link', '-I', o.frameworkRes, '--manifest', join(src, 'AndroidManifest.xml'), '-o', linked]);
  const apk = join(dir, `${name}.apk`);
  const from = ZipArchive.open(linked);
  const out = new ZipWriter(apk);
  for (const e of from.entries) out.addRaw(e.name, e.method, e.crc, from.raw(e), e.size, e.method === 0 ? 4 : undefined);
  for (const [path, bytes] of Object.entries(fixture.files ?? {})) out.add(path, bytes, fixture.deflate ? { method: 'deflate' } : { method: 'store', align: 16384 });
  out.close();
  return apk;
}
