// Bundles the CLI into one ESM file; dependencies stay external (installed with the package).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/aabify.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // workspace packages are TypeScript sources: bundle them in
  alias: {},
  external: [],
  sourcemap: true,
  logLevel: 'warning',
});
