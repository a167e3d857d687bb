/**
 * The corpus of real APKs (never copied into the repository): `$AABIFY_CORPUS`, or
 * `<repo>/../shared/corpus`. `manifest.tsv` beside the APKs lists them and what is known of each.
 * Tests use `requireCorpus(this)`: skip with a clear line when absent, fail in CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, missingPrerequisite } from './oracles.js';

export const CORPUS_DIR = resolve(process.env.AABIFY_CORPUS ?? join(REPO_ROOT, '..', 'shared', 'corpus'));

export interface CorpusApk {
  /** File name, e.g. `jx-small.apk`. */
  file: string;
  /** File name without `.apk`: what tests are named after. */
  name: string;
  path: string;
  sha256: string;
  bytes: number;
  packageName: string;
  /** As written in manifest.tsv: a number, a codename, or `-` when absent. */
  versionCode: string;
  minSdk: string;
  targetSdk: string;
  abis: string[];
  dexCount: number;
  notes: string;
}

/** Parses manifest.tsv (header line names the columns). */
export function parseCorpusManifest(text: string, dir: string): CorpusApk[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0].split('\t');
  const col = (row: string[], name: string): string => {
    const i = header.indexOf(name);
    return i >= 0 ? (row[i] ?? '') : '';
  };
  return lines.slice(1).map((line) => {
    const row = line.split('\t');
    const file = col(row, 'file');
    const abis = col(row, 'abis');
    return {
      file,
      name: file.replace(/\.apk$/, ''),
      path: join(dir, file),
      sha256: col(row, 'sha256'),
      bytes: Number(col(row, 'bytes')),
      packageName: col(row, 'package'),
      versionCode: col(row, 'versionCode'),
      minSdk: col(row, 'minSdk'),
      targetSdk: col(row, 'targetSdk'),
      abis: abis === '-' || abis === '' ? [] : abis.split(','),
      dexCount: Number(col(row, 'dex_count')),
      notes: col(row, 'notes'),
    };
  });
}

/** The corpus APKs when the folder and its manifest are there, else undefined (no throw). */
export function listCorpus(): CorpusApk[] | undefined {
  const manifest = join(CORPUS_DIR, 'manifest.tsv');
  if (!existsSync(manifest)) return undefined;
  return parseCorpusManifest(readFileSync(manifest, 'utf8'), CORPUS_DIR).filter((apk) => existsSync(apk.path));
}

/** The corpus, or a skip (a failure in CI) saying where it was looked for. */
export function requireCorpus(ctx: Mocha.Context): CorpusApk[] {
  const apks = listCorpus();
  if (!apks || apks.length === 0) {
    missingPrerequisite(ctx, `APK corpus (looked for ${join(CORPUS_DIR, 'manifest.tsv')}; set AABIFY_CORPUS to its folder)`);
  }
  return apks;
}

/** One corpus APK by name (`jx-small` or `jx-small.apk`), same skip/fail rule. */
export function requireCorpusApk(ctx: Mocha.Context, name: string): CorpusApk {
  const apk = requireCorpus(ctx).find((a) => a.name === name || a.file === name);
  if (!apk) missingPrerequisite(ctx, `corpus APK ${name} in ${CORPUS_DIR}`);
  return apk;
}
