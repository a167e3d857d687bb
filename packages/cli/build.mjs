import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

await buildNodeBundle({ entryPoints: { aabify: 'src/main.ts' }, outdir: 'dist' });
