// The CLI as two files in dist/: aabify-main.cjs, one self-contained bundle (the engine, the
// shared code and every npm dependency inlined, so the published package has no runtime
// dependencies; commands load their heavy parts, engine and HTTP client, with import(), which
// esbuild keeps lazy inside the file), and aabify.js, the entry that runs it with V8's code cache
// (src/start.ts; CommonJS because only vm.Script takes a code cache in Node 20).
// `--release` (what `npm run pack:cli` ships): no source map, and an output made to start fast.
// `--outdir DIR` builds elsewhere than dist/ (packing must not change what a running test suite
// uses there).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

const release = process.argv.includes('--release');
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : 'dist';
await buildNodeBundle({
  entryPoints: { 'aabify-main': 'src/main.ts' },
  outdir,
  format: 'cjs',
  inlineDependencies: true,
  sourcemap: !release,
  startup: release,
  // The engine's Play client and the CLI's HTTP client share one undici (the engine's range is the narrower one).
  onePackageCopy: { packages: ['undici'], fromDir: fileURLToPath(new URL('../converter/', import.meta.url)) },
});
const bundleHash = createHash('sha256').update(readFileSync(join(outdir, 'aabify-main.cjs'))).digest('hex');
await buildNodeBundle({
  entryPoints: { aabify: 'src/start.ts' },
  outdir,
  banner: '#!/usr/bin/env node\n',
  sourcemap: false,
  startup: release,
  define: { AABIFY_BUNDLE_HASH: JSON.stringify(bundleHash) },
});
