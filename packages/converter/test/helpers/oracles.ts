/**
 * Locates the independent tools the engine's tests compare against (test oracles, never product
 * dependencies): Google's bundletool jar and the aapt2 it bundles (cached by `npm run oracles`),
 * Java, Debian's aapt, protoc and keytool (from apt).
 *
 * A test that needs one calls `requireOracles(this, ...)`: when one is missing it prints exactly
 * what is missing and skips — except in CI (`CI=true`), where CI is supposed to have everything,
 * so a missing oracle fails the test instead of hiding behind a skip.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, found from this file's location (packages/converter/test/helpers). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

export const ORACLE_CACHE_DIR = process.env.AABIFY_ORACLES_DIR ?? join(REPO_ROOT, '.cache', 'oracles');

export interface Oracles {
  java: string;
  bundletoolJar: string;
  aapt2: string;
  aapt: string;
  protoc: string;
  keytool: string;
  /** Debian's apksigner: the independent check of the APK signatures the engine writes. */
  apksigner: string;
  /** GNU readelf (binutils): program headers of native libraries. */
  readelf: string;
  /** Debian's framework-res.apk, the android: attributes `aapt package -I` links fixtures against. */
  frameworkRes: string;
}
export type OracleName = keyof Oracles;

const HOW_TO_GET: Record<OracleName, string> = {
  java: 'java (Java 17 runtime: apt-get install -y openjdk-17-jre-headless)',
  bundletoolJar: `bundletool.jar (expected at ${join(ORACLE_CACHE_DIR, 'bundletool.jar')}: run \`npm run oracles\`)`,
  aapt2: `aapt2 (expected at ${join(ORACLE_CACHE_DIR, 'aapt2')}: run \`npm run oracles\`)`,
  aapt: 'aapt (Debian: apt-get install -y aapt)',
  protoc: 'protoc (Debian: apt-get install -y protobuf-compiler)',
  keytool: 'keytool (comes with the Java runtime)',
  apksigner: 'apksigner (Debian: apt-get install -y apksigner)',
  readelf: 'readelf (Debian: apt-get install -y binutils)',
  frameworkRes: 'framework-res.apk (Debian: apt-get install -y android-framework-res)',
};

export const FRAMEWORK_RES = '/usr/share/android-framework-res/framework-res.apk';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** First executable called `name` on PATH, like `which`. */
export function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Every oracle that can be found on this machine; absent ones are left out. */
export function locateOracles(): Partial<Oracles> {
  const found: Partial<Oracles> = {};
  const jar = join(ORACLE_CACHE_DIR, 'bundletool.jar');
  if (existsSync(jar) && statSync(jar).size > 0) found.bundletoolJar = jar;
  const aapt2 = join(ORACLE_CACHE_DIR, 'aapt2');
  if (isExecutable(aapt2)) found.aapt2 = aapt2;
  const java = which('java');
  if (java) found.java = java;
  const aapt = which('aapt');
  if (aapt) found.aapt = aapt;
  const protoc = which('protoc');
  if (protoc) found.protoc = protoc;
  const keytool = which('keytool');
  if (keytool) found.keytool = keytool;
  const apksigner = which('apksigner');
  if (apksigner) found.apksigner = apksigner;
  const readelf = which('readelf');
  if (readelf) found.readelf = readelf;
  if (existsSync(FRAMEWORK_RES)) found.frameworkRes = FRAMEWORK_RES;
  return found;
}

export function isCi(): boolean {
  return process.env.CI === 'true';
}

/** The skip-or-fail rule shared by every test prerequisite (oracles, corpus). */
export function missingPrerequisite(ctx: Mocha.Context, what: string): never {
  if (isCi()) throw new Error(`CI=true and a test prerequisite is missing: ${what}`);
  console.log(`      skipped: missing ${what}`);
  ctx.skip();
}

/** The named oracles, or a skip (a failure in CI) that says exactly which are missing. */
export function requireOracles<K extends OracleName>(ctx: Mocha.Context, ...names: K[]): Pick<Oracles, K> {
  const found = locateOracles();
  const missing = names.filter((n) => found[n] === undefined);
  if (missing.length > 0) missingPrerequisite(ctx, missing.map((n) => HOW_TO_GET[n]).join('; '));
  const picked = {} as Pick<Oracles, K>;
  for (const n of names) picked[n] = found[n] as Oracles[K];
  return picked;
}
