import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

// The conversion worker is its own entry: worker threads load dist/conversionWorker.js beside main.js.
await buildNodeBundle({ entryPoints: { main: 'src/main.ts', conversionWorker: 'src/conversions/conversionWorker.ts' }, outdir: process.env.AABIFY_SERVER_OUTDIR ?? 'dist' });
