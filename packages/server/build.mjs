import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

// The worker threads are entries of their own: they load dist/conversionWorker.js and
// dist/keystoreWorker.js beside main.js.
await buildNodeBundle({
  entryPoints: { main: 'src/main.ts', conversionWorker: 'src/conversions/conversionWorker.ts', keystoreWorker: 'src/keystores/keystoreWorker.ts' },
  outdir: process.env.AABIFY_SERVER_OUTDIR ?? 'dist',
});
