/**
 * Where the release CLI keeps V8's code cache for its bundle (see start.ts), and how it is read
 * and written: `$XDG_CACHE_HOME/aabify/code-cache/`, else `~/.cache/aabify/code-cache/` (as the
 * config file's directory, config.ts). `AABIFY_CODE_CACHE=0` turns it off. Every failure is
 * silent: the cache only saves compile time.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** A cache file larger than this is not read (V8's cache for the whole bundle is ~1 MB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

export function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.AABIFY_CODE_CACHE === '0') return undefined;
  const xdg = env.XDG_CACHE_HOME?.trim();
  try {
    return join(xdg ? xdg : join(homedir(), '.cache'), 'aabify', 'code-cache');
  } catch {
    return undefined; // no home directory
  }
}

/**
 * The cache file for this bundle (its hash), this Node and CPU architecture, and this command
 * (the first argument when it looks like one; options alone, such as `--help`, share one file).
 */
export function codeCacheFile(env: NodeJS.ProcessEnv, bundleHash: string, firstArg: string | undefined): string | undefined {
  const dir = codeCacheDir(env);
  if (!dir) return undefined;
  const command = firstArg && /^[a-z][a-z-]{0,31}$/.test(firstArg) ? firstArg : 'cli';
  return join(dir, `${bundleHash.slice(0, 16)}-node${process.versions.node}-${process.arch}-${command}.bin`);
}

export function readCodeCache(file: string): Buffer | undefined {
  try {
    const data = readFileSync(file);
    return data.length > 0 && data.length <= MAX_CACHE_BYTES ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Another bundle's cache is removed once unwritten this long (an upgraded CLI's old caches)... */
const OTHER_BUNDLE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** ...and the oldest beyond this many files (a checkout rebuilt all day). */
const MAX_FILES = 24;

/**
 * Writes the cache atomically (a concurrent run reads the old file or the new one, never half of
 * one) and prunes the directory. Other bundles' recent files stay: two installed versions used in
 * turn (a global one and `npx`, or a before/after benchmark) would otherwise evict each other.
 */
export function writeCodeCache(file: string, data: () => Buffer): void {
  const dir = dirname(file);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(temp, data(), { mode: 0o600 });
    renameSync(temp, file);
    const bundle = basename(file).slice(0, basename(file).indexOf('-') + 1);
    const now = Date.now();
    const files = readdirSync(dir)
      .filter((name) => name.endsWith('.bin'))
      .map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    files.forEach(({ name, mtime }, i) => {
      if (i >= MAX_FILES || (!name.startsWith(bundle) && now - mtime > OTHER_BUNDLE_MAX_AGE_MS)) rmSync(join(dir, name), { force: true });
    });
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing more to do: the next successful run tries again
    }
  }
}
