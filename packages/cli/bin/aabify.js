#!/usr/bin/env node
// Runs the bundled CLI when it is built and up to date; straight from the TypeScript sources
// otherwise, so `npx aabify` works right after `npm install` and never runs a stale bundle.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const built = join(here, '..', 'dist', 'aabify.js');
const sourceDirs = ['cli', 'converter', 'shared'].map((p) => join(here, '..', '..', p, 'src'));

function newerThan(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory() ? newerThan(p, time) : statSync(p).mtimeMs > time) return true;
  }
  return false;
}

function bundleIsCurrent() {
  if (process.env.AABIFY_CLI_FROM_SOURCE || !existsSync(built)) return false;
  const time = statSync(built).mtimeMs;
  return !sourceDirs.some((d) => existsSync(d) && newerThan(d, time));
}

if (bundleIsCurrent()) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(here, '..', 'src', 'main.ts')).href);
}
