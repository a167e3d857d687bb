#!/usr/bin/env node
// Runs the bundled CLI when built; straight from the TypeScript sources otherwise, so
// `npx aabify` works right after `npm install` on a fresh clone.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const built = join(here, '..', 'dist', 'aabify.js');
if (existsSync(built) && !process.env.AABIFY_CLI_FROM_SOURCE) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(here, '..', 'src', 'main.ts')).href);
}
