// The CLI as two files in dist/: aabify-main.cjs, one self-contained bundle (the engine, the
// shared code and every npm dependency inlined, so the published package has no runtime
// dependencies; commands load their heavy parts, engine and HTTP client, with import(), which
// esbuild keeps lazy inside the file), and aabify.js, the entry that runs it with V8's code cache
// (src/start.ts; CommonJS because only vm.Script takes a code cache in Node 20).
// `--release` (what `npm run pack:cli` ships): no source map, and an output made to start fast.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

const release = process.argv.includes('--release');
await buildNodeBundle({
  entryPoints: { 'aabify-main': 'src/main.ts' },
  outdir: 'dist',
  format: 'cjs',
  inlineDependencies: true,
  sourcemap: !release,
  startup: release,
  // The engine's Play client and the CLI's HTTP client share one undici (the engine's range is the narrower one).
  onePackageCopy: { packages: ['undici'], fromDir: fileURLToPath(new URL('../converter/', import.meta.url)) },
});
const bundleHash = createHash('sha256').update(readFileSync(new URL('dist/aabify-main.cjs', import.meta.url))).digest('hex');
await buildNodeBundle({
  entryPoints: { aabify: 'src/start.ts' },
  outdir: 'dist',
  banner: '#!/usr/bin/env node\n',
  sourcemap: false,
  startup: release,
  define: { AABIFY_BUNDLE_HASH: JSON.stringify(bundleHash) },
});
