// The CLI as one self-contained ESM file, dist/aabify.js: the engine, the shared code and every
// npm dependency inlined, so the published package has no runtime dependencies. Commands load
// their heavy parts (engine, HTTP client) with import(), which esbuild keeps lazy inside the file.
// `--release` (what `npm run pack:cli` ships): no source map, and an output made to start fast.
import { fileURLToPath } from 'node:url';
import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

await buildNodeBundle({
  entryPoints: { aabify: 'src/main.ts' },
  outdir: 'dist',
  inlineDependencies: true,
  banner: '#!/usr/bin/env node\n',
  sourcemap: !process.argv.includes('--release'),
  startup: process.argv.includes('--release'),
  // The engine's Play client and the CLI's HTTP client share one undici (the engine's range is the narrower one).
  onePackageCopy: { packages: ['undici'], fromDir: fileURLToPath(new URL('../converter/', import.meta.url)) },
});
